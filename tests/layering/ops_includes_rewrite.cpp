// Never built on purpose: the layering test builds it and expects the compiler
// to fail to find the header, because ops/ sits below rewrite/ and sees only
// the layers under it (engine/CMakeLists.txt).
#include "rewrite/Pipeline.h"
