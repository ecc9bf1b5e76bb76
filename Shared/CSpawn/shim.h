// Two glibc functions that <spawn.h> and <unistd.h> declare only under _GNU_SOURCE, which the
// Swift Glibc module is built without: the tests' child processes close every inherited
// descriptor (glibc 2.34 and later) and read their output from a pipe that is close-on-exec.
#include <spawn.h>

extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
extern int pipe2(int descriptors[2], int flags);
