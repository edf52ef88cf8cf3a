#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int main(int c, char **v) {
  unsigned long n = strtoul(v[1], 0, 0); volatile unsigned long x = 0;
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  for (unsigned long i = 0; i < n; i++) x += i;
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%.1f\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
  return 0;
}
