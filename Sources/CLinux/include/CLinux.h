// Linux interfaces Swift's Glibc module does not export: epoll and eventfd, for TLSProbe's event loops, and
// poll's POLLRDHUP (the peer closed its side), which <poll.h> defines only under _GNU_SOURCE: its Linux value.
#ifndef ATSCHECK_CLINUX_H
#define ATSCHECK_CLINUX_H
#include <sys/epoll.h>
#include <sys/eventfd.h>

#define ATSC_POLLRDHUP 0x2000
#endif
