// Linux timers the Swift Glibc module does not expose: timerfd (a timer a poll can wait on, to
// the nanosecond) and the thread's timer slack (prctl is variadic, so Swift cannot call it).
#include <sys/timerfd.h>
#include <sys/prctl.h>

/// Sets the calling thread's timer slack, in nanoseconds: how late the kernel may fire its timers
/// (50 µs by default) to group wake-ups. Returns 0, or -1 with errno.
static inline int fuelboard_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}
