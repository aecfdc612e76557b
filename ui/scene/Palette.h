#pragma once
// The colours of the canvas: one per op family, one per highlight. The
// legend, the SVG export and the tests all read them from here.
#include "trace/GraphFacts.h"

#include <QColor>

namespace tl::palette {

QColor familyFill(OpFamily f);

inline QColor added() { return QColor(0x1a, 0x9e, 0x3f); }       // green: created by the step
inline QColor addedFill() { return QColor(0xd4, 0xf7, 0xdc); }
inline QColor ghost() { return QColor(0x9a, 0x9a, 0x9a); }       // grey, dashed: erased by the step
inline QColor rewired() { return QColor(0xe6, 0x7e, 0x00); }     // orange: edge now reads another value
inline QColor opChanged() { return QColor(0xe6, 0x7e, 0x00); }
inline QColor badgeFill() { return QColor(0xff, 0xf1, 0xc1); }   // buffer shape badge
inline QColor badgeText() { return QColor(0xc0, 0x1c, 0x28); }
inline QColor merged() { return QColor(0x7b, 0x3f, 0xb3); }      // purple: merged states
inline QColor link() { return QColor(0x5b, 0x4a, 0xa8); }        // inner<->outer category labels
inline QColor selection() { return QColor(0x1e, 0x64, 0xdc); }
inline QColor searchHit() { return QColor(0xff, 0xd6, 0x00); }
inline QColor edge() { return QColor(0x55, 0x5b, 0x66); }
inline QColor text() { return QColor(0x1b, 0x1f, 0x24); }
inline QColor subtleText() { return QColor(0x5f, 0x66, 0x70); }

} // namespace tl::palette
