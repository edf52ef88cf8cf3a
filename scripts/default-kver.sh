#!/bin/bash
# The kernel to build for: the running one if its headers are installed,
# else the newest kernel with headers.
if [ -d "/lib/modules/$(uname -r)/build" ]; then
	uname -r
else
	ls -d /lib/modules/*/build 2>/dev/null | sed 's,/lib/modules/,,; s,/build,,' |
		sort -V | tail -1
fi
