// glibc's allocator statistics and trimming (mallinfo2, malloc_trim), which Swift's Glibc
// module does not expose.
#include <malloc.h>
