// local_add_canonizer and local_mul_canonizer: PyTensor's AlgebraicCanonizer, which
// flattens a tree of add/sub/neg (or mul/true_div) into terms over terms, cancels
// terms found on both sides, folds every constant into one put first (in the
// output's dtype), and rebuilds the fewest nodes:
//   exp(x) - 5          -> add(-5.0, exp(x))        printed later Composite{(-5.0 + exp(i0))}
//   a * 2 + 1           -> add(1.0, mul(2.0, a))
//   b * b * 0.25 - 1    -> add(-1.0, mul(0.25, b, b))
//   neg(neg(x))         -> x            x - (-y) -> add(x, y)      (x + y) - y -> x
//   x / 2 / 3           -> mul(0.16666666666666666, x)
// A node fires only as the root of its tree: while its one client would take it in,
// it waits for that client. Lower-rank terms come back expanded (Elemwise.make_node);
// ExpandDims of 0-d constants that compatible orders add are looked through.
// Where tensorlens is stricter than PyTensor (each keeps numbers exact):
// - a subtree is taken in only when its output has one client (PyTensor inlines shared
//   subtrees, duplicating their work) and the root's dtype;
// - every non-constant term must have the output's dtype (regrouping int8 terms
//   apart from a float64 one would move their sum into int8 and let it wrap);
// - a result that lost the output's shape (x / x -> 1, (y - y) + x[:1] -> x[:1]) is
//   broadcast back with an Alloc to the shape of one of the tree's own terms that has
//   the output's full shape, as PyTensor broadcasts it against the root's inputs; with
//   no such term it declines. Cancelling x against x can still drop x's run-time
//   length where that term is another: shape_unsafe, as in PyTensor;
// - bool outputs are left alone.
#include "ops/DimShuffle.h"
#include "rewrite/ConvertVariable.h"
#include "rewrite/LocalRewriteUtil.h"
#include "rewrite/Rewrites.h"

#include <cmath>
#include <unordered_map>

namespace tl {

namespace {

struct Family {
    const char* name;
    ScalarOpCode main, inverse;
    bool hasReciprocal;  // add: neg; mul: none (true_div(1, x) stands for it)
    ScalarOpCode reciprocal;
};
constexpr Family kAdd{"local_add_canonizer", ScalarOpCode::Add, ScalarOpCode::Sub, true, ScalarOpCode::Neg};
constexpr Family kMul{"local_mul_canonizer", ScalarOpCode::Mul, ScalarOpCode::TrueDiv, false, ScalarOpCode::Mul};

enum class Role { None, Main, Inverse, Reciprocal };

Role roleOf(const Family& f, const Node& n) {
    auto code = rw::plainElemwiseCode(n);
    if (!code) return Role::None;
    if (*code == f.main) return Role::Main;
    if (*code == f.inverse && n.numInputs() == 2) return Role::Inverse;
    if (f.hasReciprocal && *code == f.reciprocal && n.numInputs() == 1) return Role::Reciprocal;
    return Role::None;
}

/// The input of an ExpandDims that only adds leading broadcastable axes (the one
/// Elemwise.make_node inserts), or null.
Variable* leadingExpandInput(const Variable& v) {
    const Node* p = v.owner();
    if (!p || p->op().kind() != OpKind::DimShuffle) return nullptr;
    const auto& order = static_cast<const DimShuffleOp&>(p->op()).newOrder();
    const int nd = p->input(0)->type().ndim();
    const int lead = static_cast<int>(order.size()) - nd;
    if (lead < 0) return nullptr;
    for (int i = 0; i < static_cast<int>(order.size()); ++i)
        if (order[i] != (i < lead ? -1 : i - lead)) return nullptr;
    return p->input(0);
}

/// The family node under `v` that a parent of dtype `dt` takes in, or null: the
/// node computing v (or under one chain of leading ExpandDims), one client each step.
const Node* absorbable(const Family& f, const Variable& v, DType dt) {
    const Variable* cur = &v;
    while (true) {
        if (cur->clients().size() != 1 || cur->clients()[0].isGraphOutput()) return nullptr;
        const Node* p = cur->owner();
        if (!p) return nullptr;
        if (roleOf(f, *p) != Role::None) return p->output(0)->type().dtype == dt ? p : nullptr;
        cur = leadingExpandInput(*cur);
        if (!cur) return nullptr;
    }
}

/// True when `node`'s one client (through leading ExpandDims) is a family node of the
/// same dtype, which will take `node` in: absorbable()'s view from below.
bool takenInByClient(const Family& f, const Node& node) {
    const DType dt = node.output(0)->type().dtype;
    const Variable* cur = node.output(0);
    while (true) {
        if (cur->clients().size() != 1 || cur->clients()[0].isGraphOutput()) return false;
        const Node* c = cur->clients()[0].node;
        if (roleOf(f, *c) != Role::None) return c->output(0)->type().dtype == dt;
        if (c->op().kind() != OpKind::DimShuffle || leadingExpandInput(*c->output(0)) != cur) return false;
        cur = c->output(0);
    }
}

struct Terms {
    std::vector<Variable*> num, denum;
    int absorbed = 0;
};

/// PyTensor's get_num_denum, iterative (depth first, children in order).
Terms collect(const Family& f, const Node& root) {
    Terms t;
    const DType dt = root.output(0)->type().dtype;
    struct Item {
        Variable* v;
        bool inverted;
        bool isRoot;
    };
    std::vector<Item> stack{{root.output(0), false, true}};
    while (!stack.empty()) {
        Item it = stack.back();
        stack.pop_back();
        const Node* n = it.isRoot ? &root : absorbable(f, *it.v, dt);
        if (!n) {
            Variable* leaf = it.v;
            while (Variable* in = leadingExpandInput(*leaf)) leaf = in;
            (it.inverted ? t.denum : t.num).push_back(leaf);
            continue;
        }
        ++t.absorbed;
        const Role r = roleOf(f, *n);
        std::vector<Item> kids;
        if (r == Role::Main)
            for (Variable* in : n->inputs()) kids.push_back({in, it.inverted, false});
        else if (r == Role::Inverse)
            kids = {{n->input(0), it.inverted, false}, {n->input(1), !it.inverted, false}};
        else
            kids = {{n->input(0), !it.inverted, false}};
        for (auto k = kids.rbegin(); k != kids.rend(); ++k) stack.push_back(*k);
    }
    return t;
}

/// Nodes merge_num_denum builds for n terms over d terms.
int canonicalCount(size_t n, size_t d) {
    if (d == 0) return n >= 2 ? 1 : 0;
    if (n == 0) return d >= 2 ? 2 : 1;
    return 1 + (n >= 2) + (d >= 2);
}

/// inverse(main(*num), main(*denum)) of the constants, in `dt`; nullopt when neutral.
std::optional<NDArray> calculate(const Family& f, const std::vector<NDArray>& num, const std::vector<NDArray>& denum,
                                 DType dt) {
    const bool add = f.main == ScalarOpCode::Add;
    NDArray v;
    if (isFloat(dt)) {
        double n = add ? 0.0 : 1.0, d = add ? 0.0 : 1.0;
        for (const NDArray& a : num) n = add ? n + a.item() : n * a.item();
        for (const NDArray& a : denum) d = add ? d + a.item() : d * a.item();
        v = NDArray::scalar(dt, add ? n - d : n / d);
        if (v.item() == (add ? 0.0 : 1.0)) return std::nullopt;
    } else {
        // Integer arithmetic wraps as NumPy's does; unsigned 64-bit keeps it defined.
        uint64_t n = add ? 0 : 1;
        for (const NDArray& a : num) n = add ? n + static_cast<uint64_t>(a.itemInt()) : n * static_cast<uint64_t>(a.itemInt());
        for (const NDArray& a : denum) n -= static_cast<uint64_t>(a.itemInt());  // only add has integer denominators
        v = rw::scalarArray(dt, static_cast<int64_t>(n));
        if (v.itemInt() == (add ? 0 : 1)) return std::nullopt;
    }
    return v;
}

bool sameValue(const NDArray& a, const NDArray& b, DType dt) {
    if (isFloat(dt)) {
        const double x = a.item(), y = b.item();
        return x == y || (std::isnan(x) && std::isnan(y));
    }
    return rw::scalarArray(dt, a.itemInt()).itemInt() == rw::scalarArray(dt, b.itemInt()).itemInt();
}

struct CanonMatch : RewriteMatch {
    std::vector<Variable*> num, denum;  // non-constant terms
    std::optional<NDArray> constant;    // goes first in num
    Variable* shapeOf = nullptr;        // a term whose shape the result is broadcast to, or null
};

/// A term of `t` with the output's shape: the same broadcastable pattern and at least
/// its static dims, so Alloc to its shape gives the output's type. Null when none has.
Variable* termWithShape(const Terms& t, const Type& out) {
    for (const auto* side : {&t.num, &t.denum})
        for (Variable* v : *side)
            if (!v->isConstant() && v->type().isTensorType() && rw::sameBroadcastPattern(v->type(), out) && out.accepts(v->type()))
                return v;
    return nullptr;
}

class AlgebraicCanonizer final : public NodeRewrite {
public:
    explicit AlgebraicCanonizer(const Family& f) : m_f(f) {}
    std::string_view name() const override { return m_f.name; }
    std::vector<std::string> tags() const override { return {"fast_run", "fast_compile", "canonicalize", "shape_unsafe"}; }
    std::vector<OpKind> rootKinds() const override { return {OpKind::Elemwise}; }

    MatchResult match(const Node& node, const RewriteOptions& options) const override {
        if (roleOf(m_f, node) == Role::None) return MatchResult::fail(options, [&] { return std::string("not a plain " + std::string(scalarOpInfo(m_f.main).key) + " family Elemwise"); });
        const Type& out = node.output(0)->type();
        if (out.dtype == DType::Bool) return MatchResult::fail("bool output");
        if (!isFloat(out.dtype) && m_f.main == ScalarOpCode::Mul && roleOf(m_f, node) != Role::Main)
            return MatchResult::fail("integer division is not part of the product family");
        if (takenInByClient(m_f, node))
            return MatchResult::fail("its one client takes it in: the root of the tree rewrites");
        Terms t = collect(m_f, node);
        // Cancel terms found on both sides (first occurrences first, as list.remove).
        std::unordered_map<Variable*, int> inNum, inDen, cancel;
        for (Variable* v : t.num) ++inNum[v];
        for (Variable* v : t.denum) ++inDen[v];
        for (auto& [v, c] : inNum)
            if (auto it = inDen.find(v); it != inDen.end()) cancel[v] = std::min(c, it->second);
        auto m = std::make_unique<CanonMatch>();
        std::vector<NDArray> numct, denumct;
        bool cancelled = false;
        for (int side = 0; side < 2; ++side) {
            std::unordered_map<Variable*, int> left = cancel;
            for (Variable* v : side == 0 ? t.num : t.denum) {
                if (auto it = left.find(v); it != left.end() && it->second > 0) {
                    --it->second;
                    cancelled = true;
                    continue;
                }
                if (auto u = rw::uniqueValue(*v)) {
                    (side == 0 ? numct : denumct).push_back(*u);
                    continue;
                }
                if (v->type().dtype != out.dtype)
                    return MatchResult::fail(options, [&] { return std::string("term " + (v->owner() ? v->owner()->label() : std::string("input")) +
                                             " has another dtype than the output"); });
                (side == 0 ? m->num : m->denum).push_back(v);
            }
        }
        if (!isFloat(out.dtype) && m_f.main == ScalarOpCode::Mul && !denumct.empty())
            return MatchResult::fail("integer constants in a denominator");
        m->constant = calculate(m_f, numct, denumct, out.dtype);
        // PyTensor's trick: one constant, already first with this value and the output's
        // dtype -> nothing to do. A constant of another dtype is rebuilt in the output's
        // (values_eq compares dtypes), so 1 - s and 1.0 - s become one node after merge.
        bool sameLists = !cancelled && numct.empty() && denumct.empty();
        if (!cancelled && numct.size() == 1 && denumct.empty() && m->constant && !t.num.empty()) {
            if (auto first = rw::uniqueValue(*t.num.front());
                first && first->dtype() == out.dtype && sameValue(*first, *m->constant, out.dtype)) {
                sameLists = true;
                m->num.insert(m->num.begin(), t.num.front());
                m->constant.reset();
            }
        }
        // A family without a reciprocal op spells 1/x as inverse(neutral, x): a neutral
        // constant alone over the denominator is that spelling, not a term to fold
        // (rebuilding it would give the same tree again, forever).
        if (!cancelled && !m_f.hasReciprocal && numct.size() == 1 && denumct.empty() && !m->constant && m->num.empty() &&
            !m->denum.empty())
            sameLists = true;
        const size_t n = m->num.size() + (m->constant ? 1 : 0), d = m->denum.size();
        if (sameLists && t.absorbed <= canonicalCount(n, d))
            return MatchResult::fail("already canonical");
        // The rebuilt result must keep the output's broadcastable pattern.
        std::optional<Type> rt = resultType(*m, out);
        if (!rt) return MatchResult::fail("the terms do not combine");
        // The output's broadcastable pattern, as PyTensor's canonizer checks; a result
        // that knows less of the static shape (x + zeros(3) -> x: (?,)) goes in through
        // SpecifyShape (the pipeline's replace converts it), so it is still checked to
        // be 3 long at run time. Otherwise it is broadcast back to a term's shape
        // (x / x -> Alloc(1.0, shape of x)).
        if (!rw::sameBroadcastPattern(*rt, out) || !rw::convertibleTo(out, *rt)) {
            m->shapeOf = rt->ndim() <= out.ndim() ? termWithShape(t, out) : nullptr;
            if (!m->shapeOf)
                return MatchResult::fail(options, [&] { return std::string("the result would not keep the output's shape " + out.toString() +
                                                                           ", and no term has it"); });
        }
        return MatchResult::ok(std::move(m));
    }

    void apply(Rewriter& rewriter, Node& node, const RewriteMatch& match, const RewriteOptions&) const override {
        const auto& m = static_cast<const CanonMatch&>(match);
        const DType dt = node.output(0)->type().dtype;
        std::vector<Variable*> num = m.num;
        if (m.constant) num.insert(num.begin(), rewriter.constant(*m.constant));
        auto mainOf = [&](const std::vector<Variable*>& terms) -> Variable* {
            return terms.size() == 1 ? terms.front() : rw::makeElemwiseOf(rewriter, m_f.main, terms);
        };
        Variable* r;
        if (num.empty() && m.denum.empty()) {
            r = rewriter.constant(neutral(dt));
        } else if (m.denum.empty()) {
            r = mainOf(num);
        } else if (num.empty()) {
            r = m_f.hasReciprocal ? rw::makeElemwiseOf(rewriter, m_f.reciprocal, {mainOf(m.denum)})
                                  : rw::makeElemwiseOf(rewriter, m_f.inverse, {rewriter.constant(neutral(dt)), mainOf(m.denum)});
        } else {
            r = rw::makeElemwiseOf(rewriter, m_f.inverse, {mainOf(num), mainOf(m.denum)});
        }
        r = rw::castTo(rewriter, r, dt);
        if (m.shapeOf) r = rw::allocLike(rewriter, r, m.shapeOf);
        rewriter.replace(node.output(0), r);
    }

private:
    NDArray neutral(DType dt) const { return rw::scalarArray(dt, m_f.main == ScalarOpCode::Add ? 0 : 1); }

    /// The type apply() will build, computed on types alone.
    std::optional<Type> resultType(const CanonMatch& m, const Type& out) const {
        std::vector<Type> num, denum;
        if (m.constant) num.push_back(Type::tensor(out.dtype, {}));
        for (Variable* v : m.num) num.push_back(v->type());
        for (Variable* v : m.denum) denum.push_back(v->type());
        auto mainOf = [&](const std::vector<Type>& ts) -> std::optional<Type> {
            if (ts.size() == 1) return ts.front();
            return rw::elemwiseTypeOf(m_f.main, ts);
        };
        std::optional<Type> r;
        if (num.empty() && denum.empty()) return Type::tensor(out.dtype, {});
        if (denum.empty()) r = mainOf(num);
        else {
            auto d = mainOf(denum);
            if (!d) return std::nullopt;
            if (num.empty())
                r = m_f.hasReciprocal ? rw::elemwiseTypeOf(m_f.reciprocal, {*d})
                                      : rw::elemwiseTypeOf(m_f.inverse, {Type::tensor(out.dtype, {}), *d});
            else if (auto n = mainOf(num)) r = rw::elemwiseTypeOf(m_f.inverse, {*n, *d});
        }
        if (r) r->dtype = out.dtype;  // apply() casts to the output's dtype
        return r;
    }

    Family m_f;
};

} // namespace

const NodeRewrite& localAddCanonizer() {
    static const AlgebraicCanonizer r(kAdd);
    return r;
}

const NodeRewrite& localMulCanonizer() {
    static const AlgebraicCanonizer r(kMul);
    return r;
}

} // namespace tl
