// Linux interfaces Swift's Glibc module does not export: epoll and eventfd, for TLSProbe's event loops.
#ifndef ATSCHECK_CLINUX_H
#define ATSCHECK_CLINUX_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#endif
