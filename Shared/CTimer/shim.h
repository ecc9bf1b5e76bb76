// Linux's timerfd, which the Swift Glibc module does not expose: a timer a poll can wait on,
// to the nanosecond (the open loop of `fuelboard loadtest` sleeps on one between sends).
#include <sys/timerfd.h>
