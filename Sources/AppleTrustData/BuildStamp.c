// The commit the binary was built from. `make` writes build-stamp.h (gitignored) before it builds; a plain
// `swift build` has none, and the binary says so.
#include "AppleTrustData.h"

#if __has_include("build-stamp.h")
#include "build-stamp.h"
#endif
#ifndef ATSCHECK_COMMIT
#define ATSCHECK_COMMIT ""
#endif

const char *atsc_build_commit(void) { return ATSCHECK_COMMIT; }
