#include "scene/Palette.h"

namespace tl::palette {

QColor familyFill(OpFamily f) { return QColor(QRgb(opFamilyRgb(f))); }

} // namespace tl::palette
