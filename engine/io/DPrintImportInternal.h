#pragma once
// Internals of the dprint importer (io/DPrintImport.h), one idea per file:
//   DPrintImportLex.cpp       lines -> occurrences (tree glyphs, [id X], attributes)
//   DPrintImportValues.cpp    type strings, shape tuples, constant literals
//   DPrintImportOps.cpp       printed op names -> ops with their parameters
//   DPrintImportPassThrough.cpp  Assert, CheckAndRaise, ViewOp, Print by their names
//   DPrintImportComposite.cpp a Composite's scalar graph from its printed name
//   DPrintImportScan.cpp      a Scan's layout from op-info tags or from links and types
//   DPrintImportBuild.cpp     entities and scopes -> graphs (iterative), leaves, importDprint
//   DPrintImportNodes.cpp     Apply entities -> nodes (Composite, plain ops, Opaque)
//   DPrintImportScanBody.cpp  Scan nodes: evidence, body inputs, the ScanOp
#include "core/NDArray.h"
#include "io/FormatError.h"
#include "ir/Graph.h"
#include "ir/Type.h"
#include "ir/Op.h"
#include "ops/ScanInfo.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tl::dpimport {

/// "line 12" for FormatError paths.
std::string lineRef(int line);
[[noreturn]] void fail(int line, const std::string& detail);

/// What a line prints after its `[id X]`.
struct Attrs {
    std::optional<Type> type;            ///< ` <Matrix(float64, shape=(?, 7))>`
    std::string unsupportedType;         ///< ` <NoneTypeT>`: a PyTensor type tensorlens has no counterpart for
    std::optional<StaticShape> shape;    ///< ` shape=(?, 7)`
    std::optional<std::string> name;     ///< ` 'o0'`
    std::optional<AliasMap> destroy;     ///< ` d={0: [1]}`
    std::optional<AliasMap> view;        ///< ` v={0: [0]}`
    std::optional<int64_t> topo;         ///< ` 12`
    /// ` (outer_in_sit_sot-0)`: up to two, as PyTensor prints an inner input that also
    /// feeds a nested Scan with its tag in the enclosing body and in that Scan.
    std::vector<std::string> tags;
    std::optional<int64_t> link;         ///< ` -> [id D]`
    bool typeShown() const { return type.has_value() || !unsupportedType.empty(); }
    /// The tag starting with `prefix` ("inner_in_", "outer_out_"), or "".
    std::string tag(std::string_view prefix) const {
        for (const std::string& t : tags)
            if (t.rfind(prefix, 0) == 0) return t;
        return {};
    }
};

/// One printed line that shows a variable, or heads an inner-graph section.
struct Occ {
    int line = 0;              ///< 1-based line number in the text
    int section = 0;           ///< 0: the outer listing; s >= 1: inner-graph section s
    std::string head;          ///< the text before " [id X]"
    int64_t id = -1;           ///< the letters of [id X] as a number
    Attrs attrs;
    std::vector<int> children; ///< occurrence indices, in input order
    int parent = -1;
    bool repeat = false;       ///< its only child line is `└─ ···`
    bool header = false;       ///< heads an inner-graph section
    bool innerOutput = false;  ///< a ` ← ` line
};

struct Section {
    int header = -1;           ///< occurrence of the header line
    std::vector<int> outputs;  ///< occurrences of the ` ← ` lines, in order
};

struct Listing {
    std::vector<Occ> occs;
    std::vector<int> roots;          ///< occurrences of the outer outputs, in order
    std::vector<Section> sections;   ///< [0] is a placeholder for the outer listing
    bool innerGraphsTitle = false;   ///< the text has an `Inner graphs:` line
    int lastLine = 0;
};

/// Splits the text into occurrences and checks the tree glyphs. Throws FormatError.
Listing lexListing(std::string_view text);

// ---- values and types (DPrintImportValues.cpp) -----------------------------------

/// Parses a printed type ("Matrix(float64, shape=(?, 7))", "int64"). A bare
/// identifier that is no dtype ("NoneTypeT", "RandomGeneratorType") returns
/// nullopt with `unsupported` set; anything else malformed throws FormatError.
std::optional<Type> parseTypeText(std::string_view s, int line, bool* unsupported);
/// "(?, 7)", "(7,)", "()"; nullopt when malformed.
std::optional<StaticShape> parseShapeTuple(std::string_view s);
/// "{0: [1], 1: [2]}"; nullopt when malformed.
std::optional<AliasMap> parseAliasMap(std::string_view s);

/// A constant as printed: a NumPy scalar or array text, maybe "name{...}".
struct Literal {
    enum class Style { Int, Float, Bool };
    Style style = Style::Int;
    std::vector<std::string> words;  ///< element texts in C order
    StaticShape shape;               ///< from the bracket nesting ({} for a scalar)
    bool elided = false;             ///< shortened with "..." (values unknown)
    /// A float array printed at NumPy's default precision (8 decimals): an element shows
    /// all 8, so its value may have been rounded.
    bool rounded = false;
    std::string name;                ///< "c" of "c{1.5}"
};
/// nullopt when `s` is no constant literal.
std::optional<Literal> parseLiteral(std::string_view s);
/// The literal's values as an array of `dtype` and `shape`; throws std::invalid_argument
/// when the values do not fit (count, range, syntax).
NDArray literalValue(const Literal& lit, DType dtype, const StaticShape& shape);
/// The dtype a literal with no printed type most likely has (float64 / bool / int64).
DType literalDefaultDType(const Literal& lit);
/// The smallest signed integer dtype holding every value (PyTensor's constant of a Python int).
DType smallestIntDType(const Literal& lit);

// ---- ops (DPrintImportOps.cpp) ---------------------------------------------------

/// The op a printed name denotes, for these inputs and printed destroy map (which
/// makes IncSubtensor and Elemwise inplace). Returns null, with `why`, when
/// tensorlens does not know the name or its parameters, or the op it builds would
/// print otherwise: the caller imports such a node as Opaque. Never throws.
/// Scan and Composite are built by the caller (they need their bodies).
OpPtr opFromName(const std::string& name, const std::vector<Variable*>& inputs, const std::optional<AliasMap>& destroy,
                 std::string* why);
/// "axes=None", "axis=1", "axes=[0, 2]" (a reduction's axes); false for anything else.
bool parseReduceAxes(std::string_view params, std::optional<std::vector<int>>* axes);
/// Advanced indexing, MakeSlice and IfElse by their printed names (DPrintImportGraphOps.cpp),
/// or null when `base` is none of them. OpFromGraph is built by the caller (it needs its body).
OpPtr indexingOpFromName(std::string_view base, std::optional<std::string_view> params, const std::vector<Variable*>& inputs,
                         const std::optional<AliasMap>& destroy, std::string* why);
/// Assert, CheckAndRaise, ViewOp and the gradient modifiers, Print by their printed names
/// (DPrintImportPassThrough.cpp), or null when `base` is none of them.
OpPtr passThroughOpFromName(std::string_view base, std::optional<std::string_view> params);
/// A Print's printed name without its default `global_fn=<function _print_fn at 0x...>`
/// (an address tensorlens's Print does not print); any other name as it is.
std::string withoutPrintFunction(const std::string& name);
/// True for an OpFromGraph's printed name: "residual_layer{inline=False}", "Pad{inline=True}".
bool isGraphOpName(const std::string& name);
/// A scalar op inside a Composite body ("exp", "add", "Cast{float32}", "LT"), or null.
OpPtr scalarOpFromName(const std::string& name);
/// Blockwise (and Matmul), the BLAS ops and the linear-algebra ops from a printed
/// name split into base and brace contents; null when it is none of them (DPrintImportLinalg.cpp).
OpPtr linalgOpFromName(std::string_view base, std::optional<std::string_view> params, std::string* why);
/// Splits "Name{params}.3" into the name and the output index (when `applyLine`).
std::string stripOutputIndex(const std::string& head, int* outIndex);

// ---- Composite (DPrintImportComposite.cpp) ----------------------------------------

/// The scalar graph of `Composite{EXPR}` rebuilt from EXPR as PyTensor's pprint
/// writes it, for inputs of these dtypes. Null for `Composite{...}` or an
/// expression it cannot read (`why` says what).
std::unique_ptr<Graph> compositeGraphFromName(std::string_view name, const std::vector<DType>& inputDTypes,
                                              std::string* why);

// ---- Scan (DPrintImportScan.cpp) ---------------------------------------------------

/// What a listing shows about one Scan node.
struct ScanEvidence {
    std::vector<const Variable*> outerInputs;  ///< built outer inputs, n_steps first
    std::vector<std::string> outerInputTags;   ///< "" where none printed
    /// Per outer input: the rows c of `SetSubtensor{:stop}(buffer, init, c)`, how
    /// pytensor.scan lays out a state's initial rows (c = the oldest tap's distance).
    std::vector<std::optional<int>> initRows;
    struct InnerIn {
        int k = 0;
        std::optional<Type> type;
        std::vector<int> outer;    ///< positions the `-> [id X]` outer input sits at (empty: no link)
        std::string tag;
    };
    std::vector<InnerIn> innerInputs;  ///< the printed `*k-` inputs
    struct InnerOut {
        std::optional<Type> type;  ///< when printed (dtype may be a guess)
        std::optional<int> ndim;
        std::string tag;
    };
    std::vector<InnerOut> innerOutputs;
    struct OuterOut {
        std::optional<int> ndim;
        std::string tag;
    };
    std::map<int, OuterOut> outerOutputs;  ///< printed `.k` (0 when single-output)
    bool multiOutput = false;               ///< printed with `.k` suffixes
    bool asWhile = false;
    /// The Scan's name has a `grad_of_` part ("grad_of_scan_fn", "scan_fn&grad_of_f"):
    /// PyTensor's gradient loops turn every state of the loop they differentiate into a
    /// mit_mot, so only those names can have mit_mots.
    bool gradient = false;
    bool forward = true;  ///< the name has a part that is no gradient loop
};

struct ScanLayout {
    ScanInfo info;
    bool fromTags = false;
    int alternatives = 1;  ///< layouts that fit the evidence
};

/// The layout that fits the evidence; nullopt (with `why`) when none does.
std::optional<ScanLayout> inferScanLayout(const ScanEvidence& ev, std::string* why);
/// "1 sequence, 2 sit_sot (taps [-1]), 1 nit_sot" for notes.
std::string describeLayout(const ScanInfo& info);

} // namespace tl::dpimport
