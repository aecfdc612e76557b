// gemm_optimizer: a sum of scaled terms, one of them a Dot22, becomes one Gemm,
// Gemm(z, a, x, y, b) = b*z + a*(x @ y) (PyTensor's GemmOptimizer, position 10 of
// its BlasOpt, between local_dot_to_dot22 and the Gemv / Ger forms).
//
// Every add, sub, neg and mul of the graph, outermost first, is read as a sum
// s_1*M_1 + ... + s_n*M_n as PyTensor's _gemm_canonicalize reads it: adds, subs and
// negs expanded, a mul of one matrix (or vector) by scalars folded into that term's
// scale, an operand some other node also reads kept whole; a term that appears twice
// is one term with the scales added. The first pair i < j of terms with the same
// dtype and broadcast pattern where one is a Dot22 (or a Dot22's column or row
// dropped to a vector) becomes
//   s_i*M_i + s_j*Dot22(x, y)    ->  Gemm(M_i, s_j, x, y, s_i)
//   s_i*v + s_j*Dot22(X, y)[:, 0] ->  Gemm(v[:, None], s_j, X, y, s_i)[:, 0]
// with the other terms added to it. It fires only when the Dot22 goes away with the
// expression (nothing else reads it) and the new sum has the expression's type.
//
// Unlike PyTensor 2.34, a term the Gemm cannot take stays in the sum. PyTensor keeps
// only the (scale, matrix) pairs whose scale the product's dtype holds, so it drops an
// integer addend: its compiled `dot(A, B) + C + I` with an int matrix I computes
// `dot(A, B) + C` (docs/rewrites/blas.md). (A pair whose scale does not fit changes
// the sum's dtype, so there its type check refuses the Gemm anyway.)
#include "ops/BlasOps.h"
#include "ops/DimShuffle.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <algorithm>
#include <optional>

namespace tl {

namespace {

constexpr std::string_view kName = "gemm_optimizer";

// A scale as _gemm_canonicalize builds it: a number (a Python float there, which
// PyTensor types float32 when it converts it), or an expression of 0-d values: a
// value with its static length-1 dims dropped, -s, or a product or sum of scales.
// Kept symbolic until a rewrite is certain, so reading a sum changes nothing.
class Scales {
public:
    int number(double x) {
        const DType d = static_cast<double>(static_cast<float>(x)) == x ? DType::Float32 : DType::Float64;
        return push({Kind::Number, x, nullptr, {}}, d);
    }
    int value(Variable* v) { return push({Kind::Value, 0, v, {}}, v->type().dtype); }
    int neg(int s) {
        if (isNumber(s)) return number(-m_items[s].number);
        return push({Kind::Neg, 0, nullptr, {s}}, m_dtypes[s]);
    }
    int mul(std::vector<int> args) { return combine(Kind::Mul, std::move(args)); }
    int add(int a, int b) {
        if (isNumber(a) && isNumber(b)) return number(m_items[a].number + m_items[b].number);
        return combine(Kind::Add, {a, b});
    }
    /// PyTensor's scaled(thing) inside _gemm_canonicalize: thing, -thing or scale * thing.
    int scaled(int scale, Variable* thing) {
        if (isNumber(scale, 1)) return value(thing);
        if (isNumber(scale, -1) && thing->type().dtype != DType::Bool) return neg(value(thing));
        return mul({scale, value(thing)});
    }
    bool isNumber(int s) const { return m_items[s].kind == Kind::Number; }
    bool isNumber(int s, double x) const { return isNumber(s) && m_items[s].number == x; }
    DType dtype(int s) const { return m_dtypes[s]; }

    /// The scale as a 0-d tensor of `dtype` (a number directly, an expression cast).
    Variable* build(Rewriter& rw, int s, DType dtype) const {
        if (isNumber(s)) return rw.constant(NDArray::scalar(dtype, m_items[s].number));
        return rw::castTo(rw, buildExpr(rw, s), dtype);
    }

private:
    enum class Kind { Number, Value, Neg, Mul, Add };
    struct Item {
        Kind kind;
        double number;
        Variable* value;
        std::vector<int> args;
    };
    int push(Item item, DType d) {
        m_items.push_back(std::move(item));
        m_dtypes.push_back(d);
        return static_cast<int>(m_items.size()) - 1;
    }
    int combine(Kind kind, std::vector<int> args) {
        DType d = m_dtypes[args.front()];
        for (int a : args) d = promote(d, m_dtypes[a]);
        return push({kind, 0, nullptr, std::move(args)}, d);
    }
    Variable* buildExpr(Rewriter& rw, int s) const {
        const Item& it = m_items[s];
        switch (it.kind) {
        case Kind::Number: return rw.constant(NDArray::scalar(m_dtypes[s], it.number));
        case Kind::Value: {
            Variable* v = it.value;
            if (v->type().ndim() > 0) v = rw::dimShuffle(rw, v, {});
            return v;
        }
        case Kind::Neg: return rw::makeElemwiseOf(rw, ScalarOpCode::Neg, {buildExpr(rw, it.args[0])});
        case Kind::Mul:
        case Kind::Add: {
            std::vector<Variable*> args;
            for (int a : it.args) args.push_back(buildExpr(rw, a));
            return rw::makeElemwiseOf(rw, it.kind == Kind::Mul ? ScalarOpCode::Mul : ScalarOpCode::Add, std::move(args));
        }
        }
        return nullptr;
    }
    std::vector<Item> m_items;
    std::vector<DType> m_dtypes;
};

// One term s * M of the sum. A pair is what PyTensor keeps as a (scale, M) tuple and
// may fold into a Gemm; any other term is added as scaled(M).
struct Term {
    int scale;
    Variable* value;
    bool pair;
};

bool allDimsOne(const Type& t) {
    return std::all_of(t.shape.begin(), t.shape.end(), [](int64_t d) { return d == 1; });
}
bool isRealVector(const Type& t) { return isFloat(t.dtype) && t.ndim() == 1 && t.shape[0] != 1; }
bool isRealMatrix(const Type& t) { return isFloat(t.dtype) && t.ndim() == 2 && t.shape[0] != 1 && t.shape[1] != 1; }

struct Pending {
    Variable* value;
    int scale;
};

// A mul of one matrix or one vector by scalars: that operand with the scalars in its
// scale; nullopt for any other mul.
std::optional<Pending> foldMul(const Node& mul, int scale, Scales& scales) {
    std::vector<Variable*> scalars, others;
    for (Variable* v : mul.inputs()) {
        if (allDimsOne(v->type())) {
            while (v->owner() && v->owner()->kind() == OpKind::DimShuffle) v = v->owner()->input(0);
            scalars.push_back(v);
        } else if (isRealVector(v->type()) || isRealMatrix(v->type())) {
            others.push_back(v);
        } else {
            return std::nullopt;
        }
    }
    if (others.size() != 1) return std::nullopt;
    if (scalars.empty()) return Pending{others[0], scale};
    int s = scales.scaled(scale, scalars[0]);
    if (scalars.size() > 1) {
        std::vector<int> args{s};
        for (size_t k = 1; k < scalars.size(); ++k) args.push_back(scales.value(scalars[k]));
        s = scales.mul(std::move(args));
    }
    return Pending{others[0], s};
}

// The sum `root` computes, in _gemm_canonicalize's order (depth first, operands left
// to right); `expanded` gets the nodes read through (the root's first), each of which
// goes away when the root is replaced: every one but the root has a single reader.
std::vector<Term> readSum(Variable* root, Scales& scales, std::vector<const Node*>& expanded) {
    std::vector<Term> terms;
    std::vector<Pending> stack{{root, scales.number(1.0)}};
    while (!stack.empty()) {
        const Pending p = stack.back();
        stack.pop_back();
        const Type& t = p.value->type();
        if (!t.isTensorType() || (t.ndim() != 1 && t.ndim() != 2) || !isFloat(t.dtype)) {
            terms.push_back({p.scale, p.value, false});
            continue;
        }
        const Node* n = p.value->owner();
        std::vector<Pending> next;
        if (n && (p.value == root || p.value->clients().size() <= 1)) {
            switch (rw::plainElemwiseCode(*n).value_or(ScalarOpCode::Identity)) {
            case ScalarOpCode::Sub: next = {{n->input(0), p.scale}, {n->input(1), scales.neg(p.scale)}}; break;
            case ScalarOpCode::Add:
                for (Variable* v : n->inputs()) next.push_back({v, p.scale});
                break;
            case ScalarOpCode::Neg: next = {{n->input(0), scales.neg(p.scale)}}; break;
            case ScalarOpCode::Mul:
                if (auto inner = foldMul(*n, p.scale, scales)) next = {*inner};
                break;
            default: break;
            }
        }
        if (next.empty()) {
            terms.push_back({p.scale, p.value, true});
            continue;
        }
        expanded.push_back(n);
        for (auto it = next.rbegin(); it != next.rend(); ++it) stack.push_back(*it);
    }
    return terms;
}

// _factor_canonicalized: a pair's value appearing again later is one term.
void factorRepeats(std::vector<Term>& terms, Scales& scales) {
    for (size_t i = 0; i < terms.size(); ++i) {
        if (!terms[i].pair) continue;
        for (size_t j = i + 1; j < terms.size();) {
            if (terms[j].pair && terms[j].value == terms[i].value) {
                terms[i].scale = scales.add(terms[i].scale, terms[j].scale);
                terms.erase(terms.begin() + static_cast<std::ptrdiff_t>(j));
            } else {
                ++j;
            }
        }
    }
}

// A term the Gemm can compute: the Dot22 itself, or its one column (keep axis 0) or
// row (keep axis 1) dropped to a vector.
struct DotForm {
    const Node* dot;
    const Node* drop = nullptr;  // the DimShuffle dropping the length-1 axis, if any
    int keptAxis = -1;
};
std::optional<DotForm> dotForm(const Variable& m) {
    const Node* n = m.owner();
    if (!n) return std::nullopt;
    if (n->kind() == OpKind::Dot22) return DotForm{n};
    if (n->kind() != OpKind::DimShuffle) return std::nullopt;
    const Node* d = n->input(0)->owner();
    const auto& order = static_cast<const DimShuffleOp&>(n->op()).newOrder();
    if (!d || d->kind() != OpKind::Dot22 || order.size() != 1 || (order[0] != 0 && order[0] != 1)) return std::nullopt;
    return DotForm{d, n, order[0]};
}

struct GemmPlan {
    size_t z, product;  // indices of the terms that become z and a * (x @ y)
    DotForm form;
};

// _gemm_from_factored_list's search: the first pair of pairs, in order, one of which
// (the later one first, as _beta_L_plus_alpha_M tries it) is a Dot22 form.
std::optional<GemmPlan> firstGemmPair(const std::vector<Term>& terms) {
    for (size_t i = 0; i < terms.size(); ++i) {
        if (!terms[i].pair) continue;
        for (size_t j = i + 1; j < terms.size(); ++j) {
            if (!terms[j].pair) continue;
            const Type &a = terms[i].value->type(), &b = terms[j].value->type();
            if (a.dtype != b.dtype || !rw::sameBroadcastPattern(a, b)) continue;
            if (auto f = dotForm(*terms[j].value)) return GemmPlan{i, j, *f};
            if (auto f = dotForm(*terms[i].value)) return GemmPlan{j, i, *f};
        }
    }
    return std::nullopt;
}

bool allReadersAmong(const Variable& v, const std::vector<const Node*>& nodes) {
    return std::all_of(v.clients().begin(), v.clients().end(), [&](const Client& c) {
        return c.node && std::find(nodes.begin(), nodes.end(), c.node) != nodes.end();
    });
}

class GemmOptimizer final : public GraphPass {
public:
    std::string_view name() const override { return kName; }
    std::vector<std::string> tags() const override { return {"fast_run", "blas"}; }

    bool run(Rewriter& rw, const RewriteOptions&) override {
        const Graph& g = rw.graph();
        bool changed = false;
        // Each rewrite takes one Dot22 away, so this ends; a round that folds one
        // lets the sums around it be read again, as PyTensor's loop does.
        for (bool again = true; again && g.countOfKind(OpKind::Dot22) > 0;) {
            again = false;
            std::vector<NodeId> sums;
            for (const Node* n : g.toposort()) {
                const auto code = rw::plainElemwiseCode(*n);
                if (code == ScalarOpCode::Add || code == ScalarOpCode::Sub || code == ScalarOpCode::Neg ||
                    code == ScalarOpCode::Mul)
                    sums.push_back(n->id());
            }
            for (auto it = sums.rbegin(); it != sums.rend(); ++it)  // outermost first
                if (const Node* n = g.findNode(*it); n && tryGemm(rw, *n)) again = changed = true;
        }
        return changed;
    }

private:
    static bool tryGemm(Rewriter& rw, const Node& node) {
        Scales scales;
        std::vector<const Node*> expanded;
        std::vector<Term> terms = readSum(node.output(0), scales, expanded);
        if (terms.size() < 2) return false;
        factorRepeats(terms, scales);
        for (Term& t : terms)  // a pair whose scale the product's dtype cannot hold is added as it is
            if (t.pair && promote(scales.dtype(t.scale), t.value->type().dtype) != t.value->type().dtype) t.pair = false;
        const std::optional<GemmPlan> plan = firstGemmPair(terms);
        if (!plan) {
            rw.notifyMatchFailure(kName, node, [] { return std::string("no Dot22 term with a term of its type to add to"); });
            return false;
        }
        const DotForm& f = plan->form;
        const bool removed = f.drop ? allReadersAmong(*f.drop->output(0), expanded) &&
                                          allReadersAmong(*f.dot->output(0), {f.drop})
                                    : allReadersAmong(*f.dot->output(0), expanded);
        if (!removed) {
            rw.notifyMatchFailure(kName, node, [] { return std::string("the Dot22 has another reader"); });
            return false;
        }
        const std::optional<Type> type = resultType(terms, *plan, scales);
        const Type& want = node.output(0)->type();
        if (!type || type->dtype != want.dtype || !rw::sameBroadcastPattern(*type, want) ||
            !rw::compatibleTypes(*type, want)) {
            rw.notifyMatchFailure(kName, node, [] { return std::string("the sum with a Gemm would change the type"); });
            return false;
        }
        RewriteScope step(rw, kName, &node);
        rw.replace(node.output(0), buildSum(rw, terms, *plan, scales));
        step.setChanged();
        return true;
    }

    static Type scaleType(const Term& t, const Scales& scales) {
        return Type::tensor(t.pair ? t.value->type().dtype : scales.dtype(t.scale), {});
    }

    // The type of the sum buildSum makes (nullopt when Elemwise rejects it).
    static std::optional<Type> resultType(const std::vector<Term>& terms, const GemmPlan& plan, const Scales& scales) {
        std::vector<Type> types;
        for (size_t k = 0; k < terms.size(); ++k) {
            if (k == plan.z || k == plan.product) continue;
            const Term& t = terms[k];
            if (scales.isNumber(t.scale, 1) || scales.isNumber(t.scale, -1)) {
                types.push_back(t.value->type());
            } else if (auto m = rw::elemwiseTypeOf(ScalarOpCode::Mul, {scaleType(t, scales), t.value->type()})) {
                types.push_back(*m);
            } else {
                return std::nullopt;
            }
        }
        types.push_back(terms[plan.z].value->type());  // Gemm's output has z's type
        if (types.size() == 1) return types[0];
        return rw::elemwiseTypeOf(ScalarOpCode::Add, types);
    }

    static Variable* buildTerm(Rewriter& rw, const Term& t, const Scales& scales) {
        if (scales.isNumber(t.scale, 1)) return t.value;
        if (scales.isNumber(t.scale, -1) && t.value->type().dtype != DType::Bool)
            return rw::makeElemwiseOf(rw, ScalarOpCode::Neg, {t.value});
        return rw::makeElemwiseOf(rw, ScalarOpCode::Mul, {scales.build(rw, t.scale, scaleType(t, scales).dtype), t.value});
    }

    static Variable* buildSum(Rewriter& rw, const std::vector<Term>& terms, const GemmPlan& plan, const Scales& scales) {
        const DotForm& f = plan.form;
        const DType dtype = f.dot->output(0)->type().dtype;
        Variable* z = terms[plan.z].value;
        if (f.keptAxis == 0) z = rw::dimShuffle(rw, z, {0, -1});  // v[:, None]
        if (f.keptAxis == 1) z = rw::dimShuffle(rw, z, {-1, 0});  // v[None, :]
        Variable* gemm = rw.create(makeGemm(false), {z, scales.build(rw, terms[plan.product].scale, dtype),
                                                     f.dot->input(0), f.dot->input(1),
                                                     scales.build(rw, terms[plan.z].scale, dtype)})
                             ->output(0);
        if (f.keptAxis >= 0) gemm = rw::dimShuffle(rw, gemm, {f.keptAxis});
        std::vector<Variable*> sum;
        for (size_t k = 0; k < terms.size(); ++k)
            if (k != plan.z && k != plan.product) sum.push_back(buildTerm(rw, terms[k], scales));
        if (sum.empty()) return gemm;
        sum.push_back(gemm);
        return rw::makeElemwiseOf(rw, ScalarOpCode::Add, std::move(sum));
    }
};

} // namespace

std::unique_ptr<GraphPass> makeGemmOptimizer() { return std::make_unique<GemmOptimizer>(); }

} // namespace tl
