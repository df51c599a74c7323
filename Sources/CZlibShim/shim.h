// zlib for AppBundle's zip reader (raw inflate and CRC-32). Debian: zlib1g-dev, which ZIPFoundation's build
// needs on Linux already. `inflateInit2` is a macro; the shim gives Swift a function to call.
#ifndef CZLIBSHIM_H
#define CZLIBSHIM_H

#include <zlib.h>

/// `inflateInit2(stream, -MAX_WBITS)`: a raw deflate stream, as a zip entry stores it (no zlib header).
static inline int czlibshim_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}

#endif
