#pragma once
// Printed names of the array constructors and selection ops (ARange{dtype='int64'},
// Split{3}, SortOp{kind='quicksort'}, Unique{...}, ...) -> ops, for the dprint
// importer. The grammar is each op's name() (ops/ARange.h, Sort.h, Unique.h, ...).
#include "ir/Op.h"

#include <optional>
#include <string>
#include <string_view>

namespace tl::dpimport {

/// The op printed as base{params} (params absent without braces), or null when the
/// name is not one of these ops; `why` says what is wrong with a name that is one
/// of them but cannot be read (Pad's name does not carry its mode).
OpPtr arrayOpFromName(std::string_view base, std::optional<std::string_view> params, std::string* why);

} // namespace tl::dpimport
