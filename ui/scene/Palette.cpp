#include "scene/Palette.h"

namespace tl::palette {

QColor familyFill(OpFamily f) {
    switch (f) {
    case OpFamily::Elemwise: return QColor(0xd6, 0xe9, 0xff);
    case OpFamily::Composite: return QColor(0xa9, 0xd2, 0xff);
    case OpFamily::Scan: return QColor(0xff, 0xdf, 0xb0);
    case OpFamily::Indexing: return QColor(0xd9, 0xf0, 0xcf);
    case OpFamily::Memory: return QColor(0xf7, 0xd4, 0xd4);
    case OpFamily::Shape: return QColor(0xe7, 0xe1, 0xf7);
    case OpFamily::Reduction: return QColor(0xff, 0xf3, 0xb3);
    case OpFamily::Check: return QColor(0xee, 0xee, 0xee);
    case OpFamily::Scalar: return QColor(0xd2, 0xf1, 0xf0);
    case OpFamily::Other: return QColor(0xe0, 0xe0, 0xe0);
    case OpFamily::Input: return QColor(0xff, 0xff, 0xff);
    case OpFamily::Constant: return QColor(0xf3, 0xf3, 0xf3);
    }
    return QColor(0xe0, 0xe0, 0xe0);
}

} // namespace tl::palette
