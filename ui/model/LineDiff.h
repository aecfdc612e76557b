#pragma once
// The few stretches of lines that differ between two listings, so a pane shows
// a new listing by replacing only those (a step changes a handful of lines of
// the thousands a 5,000-node graph prints).
#include <string>
#include <vector>

namespace tl {

/// Old lines [oldBegin, oldEnd) become new lines [newBegin, newEnd).
struct LineHunk {
    int oldBegin = 0, oldEnd = 0, newBegin = 0, newEnd = 0;
};

/// The hunks turning `before` into `after`, in order, with as few lines changed
/// as Myers's shortest edit script finds; when more than `maxEdits` lines differ
/// the whole differing middle is one hunk (replacing it is then the cheap part).
std::vector<LineHunk> lineHunks(const std::vector<std::string>& before, const std::vector<std::string>& after, int maxEdits = 400);

} // namespace tl
