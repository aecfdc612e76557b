#pragma once
// RFFTOp and IRFFTOp (pytensor.tensor.fft): NumPy's rfftn and irfftn over the last
// len(s) axes, unnormalised both ways, with complex values stored as a trailing axis
// of two reals (real, imaginary), as PyTensor stores them (it has no complex tensors
// in these ops). pt.fft.rfft(x) is RFFTOp(x, x.shape[1:]) divided by a norm factor,
// pt.fft.irfft(z) IRFFTOp(z, s) with s[-1] = 2 * (n - 1) (+ 1 when is_odd).
//  - RFFTOp(a, s): a of >= 2 dims, s an integer vector. The input is cropped or
//    zero-padded to s on those axes, then transformed: real-to-half-spectrum on the
//    last (s[-1] // 2 + 1 bins), complex on the others. Output a.ndim + 1 dims.
//  - IRFFTOp(z, s): z of >= 3 dims whose last has the two parts. The inverse: complex
//    on all transformed axes but the last (each cropped or padded to s), then
//    half-spectrum-to-real of length s[-1] on the last (whose imaginary parts at 0 and,
//    for even lengths, at the Nyquist bin are ignored, as NumPy ignores them).
// Both compute in float64 (NumPy < 2 does) and cast to the input's dtype, as PyTensor's
// output type says. The transforms are Eigen's FFT (its kissfft back end).
#include "ir/Op.h"

namespace tl {

class RealFFTOp final : public Op {
public:
    explicit RealFFTOp(bool inverse) : Op(inverse ? OpKind::IRFFTOp : OpKind::RFFTOp) {}
    bool inverse() const { return kind() == OpKind::IRFFTOp; }
    std::string name() const override { return inverse() ? "IRFFTOp" : "RFFTOp"; }
    std::vector<Type> inferTypes(std::span<const Type* const> inputs) const override;
    void perform(std::span<const NDArray> inputs, std::span<NDArray> outputs) const override;
};

OpPtr makeRFFT();
OpPtr makeIRFFT();

} // namespace tl
