#pragma once
// PyTensor's Scan: a loop whose body is an inner tensor graph. Inputs and
// outputs are laid out by ScanInfo (ops/ScanInfo.h); execution follows
// Scan.perform (docs/semantics.md#scan-execution): trace buffers with the initial rows first,
// circular buffers, rotation after the loop, trimming of a while loop that
// stopped early, inplace use of the outer buffers in destroy_map.
#include "ir/Op.h"
#include "ops/ScanInfo.h"

#include <memory>
#include <string>
#include <vector>

namespace tl {

class ScanOp : public Op {
public:
    /// `inner` has info.numInnerInputs() inputs and info.numInnerOutputs() outputs in
    /// ScanInfo order. `inplaceStates`: traced states (0-based over mit_mot, mit_sot,
    /// sit_sot) whose outer buffer the loop overwrites (destroy_map). `reuseProvenSafe`
    /// (one flag per traced state, missing = false): a rewrite proved that writing the
    /// new state straight into its buffer row cannot overwrite a tap still to be read,
    /// even when the buffer keeps only init_l rows (docs/semantics.md#exact-buffer-sizing).
    /// Throws std::invalid_argument naming what does not fit.
    ScanOp(ScanInfo info, std::shared_ptr<const Graph> inner, std::string scanName = "scan_fn",
           std::vector<int> inplaceStates = {}, std::vector<bool> reuseProvenSafe = {});

    const ScanInfo& info() const { return m_info; }
    const std::shared_ptr<const Graph>& inner() const { return m_inner; }
    /// The loop's name ("scan_fn", "rop_of_scan_fn", "a&b" after ScanMerge).
    const std::string& scanName() const { return m_scanName; }
    /// Traced states whose buffer is destroyed, ascending.
    const std::vector<int>& inplaceStates() const { return m_inplace; }
    bool isInplace(int state) const;
    /// One flag per traced state.
    const std::vector<bool>& reuseProvenSafe() const { return m_reuseProvenSafe; }

    /// The same loop with other inplace states / other reuse proofs (for rewrites).
    std::shared_ptr<const ScanOp> withInplace(std::vector<int> inplaceStates) const;
    std::shared_ptr<const ScanOp> withReuseProvenSafe(std::vector<bool> flags) const;

    /// "Scan{scan_fn, while_loop=False, inplace=all}" (inplace=none, or "[0, 2]" for some).
    std::string name() const override;
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    /// The loop runs its inner graph through the executor: exec/ScanLoop.h.
    bool hasKernel() const override { return false; }
    /// {state: [outer input of its buffer]} for each inplace state.
    AliasMap destroyMap() const override;
    /// {"name", "info": {...}, "inplace": [...], "reuse_proven_safe": [...]}; see scanInfoToJson.
    nlohmann::json params() const override;
    std::shared_ptr<const Graph> innerGraph() const override { return m_inner; }

private:
    ScanInfo m_info;
    std::shared_ptr<const Graph> m_inner;
    std::string m_scanName;
    std::vector<int> m_inplace;
    std::vector<bool> m_reuseProvenSafe;
};

/// Builds a ScanOp (see the constructor).
std::shared_ptr<const ScanOp> makeScan(ScanInfo info, std::shared_ptr<const Graph> inner, std::string scanName = "scan_fn",
                                       std::vector<int> inplaceStates = {}, std::vector<bool> reuseProvenSafe = {});

/// {"n_seqs", "mit_mot_in_taps", "mit_mot_out_taps", "mit_sot_taps", "n_sit_sot",
///  "n_nit_sot", "n_untraced", "n_non_seqs", "as_while"}.
nlohmann::json scanInfoToJson(const ScanInfo& info);
/// Inverse of scanInfoToJson; std::invalid_argument naming the bad key.
ScanInfo scanInfoFromJson(const nlohmann::json& j);

} // namespace tl
