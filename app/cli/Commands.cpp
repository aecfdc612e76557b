#include "cli/Commands.h"

namespace tl::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> kCommands = {
        {"example", "list the built-in examples or write one as a JSON graph",
         "Usage: tensorlens example --list\n"
         "       tensorlens example NAME -o FILE.json\n"
         "       tensorlens example --generate KIND [--nodes N] [--seed S] -o FILE.json\n\n"
         "The built-in examples: the seed bug report's two programs (seed_rop, seed_dup) and\n"
         "one per PyTensor reference case (tests/oracle/<case>). --generate makes a graph of about\n"
         "N nodes, the one the benchmarks use (docs/performance.md):\n"
         "  mixed  elementwise chains, duplicated subexpressions and Scans (the window's 5,000-node case)\n"
         "  chain  one long elementwise chain reading its input again every eighth op\n"
         "  scans  N/8 independent loops of equal length (scan_merge material)\n"
         "  dup    every subexpression built twice (merge material)\n\n"
         "Options:\n"
         "  --list             list the examples with a one-line description\n"
         "  --generate KIND    mixed, chain, scans or dup\n"
         "  --nodes N          about how many nodes (default 5000)\n"
         "  --seed S           the mixed graph's random choices (default 1)\n"
         "  -o, --output FILE  where to write the graph (default: standard output)\n",
         &cmdExample},
        {"run", "execute a graph on the CPU and print its outputs",
         "Usage: tensorlens run FILE.json [--inputs IN.json | --seed N] [--json]\n\n"
         "IN.json maps input names to values: a nested list, or {\"dtype\", \"shape\", \"data\"}.\n"
         "Without --inputs, inputs are seeded random values (--seed, default 0).\n\n"
         "Options:\n"
         "  --inputs FILE   input values\n"
         "  --seed N        seed for random inputs\n"
         "  --json          print {\"outputs\": [{\"name\", \"dtype\", \"shape\", \"data\"}], \"peak_bytes\": N}\n"
         "                  with floats that read back exactly\n"
         "  --step N        with --trace: run the graph after step N\n"
         "  --trace FILE    a rewrite trace (from `tensorlens rewrite --trace`)\n",
         &cmdRun},
        {"print", "print a graph as PyTensor's dprint does",
         "Usage: tensorlens print FILE.json [--type] [--shape] [--destroy-map] [--view-map] [--op-info] [--topo]\n"
         "       tensorlens print --trace TRACE.json --step N [options]\n\n"
         "Options:\n"
         "  --type          print types <Matrix(float64, shape=(?, 7))>\n"
         "  --shape         print shape=(...)\n"
         "  --destroy-map   print d={...}\n"
         "  --view-map      print v={...}\n"
         "  --op-info       print Scan tags (outer_in_sit_sot-0 ...)\n"
         "  --topo          print topological indices as PyTensor does for compiled graphs\n"
         "  --trace FILE    print a step of a rewrite trace\n"
         "  --step N        the step (0 = the original graph)\n",
         &cmdPrint},
        {"rewrite", "run the FAST_RUN-like rewrite pipeline and record its trace",
         "Usage: tensorlens rewrite IN.json -o OUT.json [--trace TRACE.json] [--mode exact|pytensor]\n"
         "                          [--exclude NAME|TAG]... [--include NAME|TAG]... [--explain] [--list]\n\n"
         "Options:\n"
         "  -o, --output FILE   the rewritten graph\n"
         "  --trace FILE        save every rewrite step (docs/trace-format.md)\n"
         "  --mode MODE         scan buffer sizing: exact (default, proven-safe minimum) or pytensor\n"
         "                      (as PyTensor's C backend: one extra row when buffers are reused)\n"
         "  --exclude NAME      skip a rewrite, pass or tag (repeatable)\n"
         "  --include NAME      run a rewrite that is off by default or excluded by a tag (repeatable)\n"
         "  --explain           record which rewrites were tried at each node and why they did not fire\n"
         "  --list              list the pipeline's phases and rewrites with their tags\n",
         &cmdRewrite},
        {"trace", "list the steps of a rewrite trace",
         "Usage: tensorlens trace TRACE.json [--explain]\n\n"
         "One line per step: step number, phase, rewrite, root node, then what changed.\n"
         "  --explain   also list the recorded match failures\n",
         &cmdTrace},
        {"verify", "run the graph after every rewrite step and find the first that changes the outputs",
         "Usage: tensorlens verify IN.json [--inputs IN.json | --seed N] [--mode exact|pytensor]\n"
         "                         [--exclude NAME]... [--rtol X] [--atol X]\n\n"
         "Rewrites IN.json, then executes the original graph and the graph after each step on the same\n"
         "inputs. Exit code 0 when every step keeps the outputs, 1 at the first step that does not.\n",
         &cmdVerify},
        {"export", "render a graph (or a trace step) to SVG, PNG, DOT, JSON or dprint text",
         "Usage: tensorlens export (FILE | --trace TRACE.json | --example NAME) [--step N] [--rewrite]\n"
         "                         [--mode exact|pytensor] [--exclude NAME]... [--types] [--no-shapes]\n"
         "                         -o OUT.(svg|png|dot|json|trace.json|txt)\n\n"
         "Writes the graph at step N (default: the last) in the format the extension names. SVG and PNG\n"
         "are the window's scene with the highlights of step N, rendered offscreen (no display needed);\n"
         "DOT outlines the nodes step N added; .json is the graph, .trace.json the whole trace, .txt dprint.\n"
         "FILE is a JSON graph, a JSON trace or dprint text. A graph is exported as it is unless --rewrite\n"
         "(or --step, --mode, --exclude) runs the FAST_RUN pipeline on it first, as the window does.\n",
         &cmdExport},
        {"import-dprint", "read PyTensor dprint text into a JSON graph",
         "Usage: tensorlens import-dprint FILE.txt -o OUT.json [--inputs IN.json]\n\n"
         "Reads the output of pytensor.dprint (any options, Inner graphs included). What had to be\n"
         "inferred or could not be known is reported on stderr. --inputs (the values file `run`\n"
         "takes) types the inputs a listing printed without types (plain `pytensor.dprint(f)`).\n",
         &cmdImportDprint},
        {"missed", "what did PyTensor miss? its compiled graph beside tensorlens's, as a report",
         "Usage: tensorlens missed PT_TRACE.json [--markdown | --json] [-o OUT] [--mode exact|pytensor]\n"
         "                         [--exclude NAME]... [--include NAME]... [--inputs IN.json | --seed N]\n"
         "                         [--no-run] [--source MODULE.py] [--name NAME]\n"
         "       tensorlens missed COMPILED.json | LISTING.txt [options]\n\n"
         "PT_TRACE.json is PyTensor's own rewrites recorded by tools/pytensor_export.py (record_rewrites,\n"
         "or `pytensor_export.py MODULE.py --missed`). tensorlens's pipeline runs on PyTensor's original\n"
         "graph and on PyTensor's compiled graph; the report compares the two compilers' loops (states,\n"
         "buffer rows and bytes, scalar ops and exps per step, buffers reused in place) and graphs (nodes,\n"
         "DeepCopyOps, peak bytes and time of a run on the same inputs, the largest output difference),\n"
         "and lists every rewrite tensorlens still makes on PyTensor's graph, with its reason and, where\n"
         "PyTensor's source says why it did not, that too. A compiled graph or a dprint listing pasted\n"
         "from an issue gives the second half. See docs/missed.md.\n\n"
         "Options:\n"
         "  --markdown        a report to paste into a PyTensor issue (dprint before and after, tables)\n"
         "  --json            everything as JSON (docs/missed.md#json)\n"
         "  -o, --output FILE where to write it (default: standard output)\n"
         "  --mode MODE       tensorlens's buffer sizing: exact (default) or pytensor\n"
         "  --exclude NAME    skip a rewrite, pass or tag in tensorlens's pipeline (repeatable)\n"
         "  --include NAME    run a rewrite that is off by default (repeatable)\n"
         "  --inputs FILE     input values by name (as `tensorlens run`); default: seeded random values\n"
         "  --seed N          seed of the random inputs (default 0)\n"
         "  --no-run          do not run the graphs (static facts only)\n"
         "  --source FILE     the program's Python source, shown at the top of the Markdown report\n"
         "  --name NAME       the program's name in the report (default: the file's stem)\n",
         &cmdMissed},
    };
    return kCommands;
}

const Command* findCommand(const std::string& name) {
    for (const Command& c : commands())
        if (name == c.name) return &c;
    return nullptr;
}

} // namespace tl::cli
