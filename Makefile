# eventboost — see README.md.
#   make                      module for KVER and libeventboost
#   make module KVER=<rel>    eventboost.ko for one installed kernel's headers
#   make userlib              libeventboost (.so, .a), eventboost.pc
#   make demo                 a Node service under load in a QEMU guest, eventboost off/on
#   make check                all tests (as root), in QEMU guests on 6.1, 6.12, 6.12-rt, 7.2, 7.2-rt
#   make bench                cost of a hint, hint->applied latency, cost to Node (~15 min)
#   make experiment           tail latency vs energy, every policy, emulated DVFS (~2 h)
#   make stress / make fuzz   long stress suite / long ioctl fuzzing, every kernel
#   make check-debug          guest suite, stress and fuzz on KASAN/lockdep/kmemleak and RT/lockdep kernels
#   make install DESTDIR= PREFIX= KVER= LIBDIR=  /  make uninstall (same variables)
#   make install-user         the same without the module (no kernel headers needed)
#   make install-dkms DESTDIR=              sources for DKMS (rebuilds on kernel upgrades)
KVER ?= $(shell scripts/default-kver.sh)
PREFIX ?= /usr/local
DESTDIR ?=

LIBVER := 0.1.0
# libeventboost.so.$(SOVERSION), SONAME libeventboost.so.$(SOMAJOR): see userlib/Makefile.
SOMAJOR := 1
SOVERSION := 1.3.0
OUT := $(CURDIR)/build
# LIBDIR: where the library goes (without DESTDIR).  With PREFIX=/usr on
# Debian, the multiarch directory (/usr/lib/x86_64-linux-gnu), else
# $(PREFIX)/lib.  INCLUDEDIR likewise.
MULTIARCH := $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null)
ifeq ($(PREFIX)$(if $(MULTIARCH),y,),/usry)
LIBDIR ?= /usr/lib/$(MULTIARCH)
else
LIBDIR ?= $(PREFIX)/lib
endif
INCLUDEDIR ?= $(PREFIX)/include
MODDIR := $(DESTDIR)/lib/modules/$(KVER)/extra
DLIBDIR := $(DESTDIR)$(LIBDIR)
INCDIR := $(DESTDIR)$(INCLUDEDIR)
BINDIR := $(DESTDIR)$(PREFIX)/bin
SBINDIR := $(DESTDIR)$(PREFIX)/sbin
MANDIR := $(DESTDIR)$(PREFIX)/share/man
BASHCOMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
UDEVDIR := $(DESTDIR)/lib/udev/rules.d
UNITDIR := $(DESTDIR)/lib/systemd/system
DOCDIR := $(DESTDIR)$(PREFIX)/share/doc/eventboost
DKMSDIR := $(DESTDIR)/usr/src/eventboost-$(LIBVER)

all: module userlib

module:
	@test -n "$(KVER)" || { echo "error: no kernel headers installed (apt-get install linux-headers-amd64)"; exit 2; }
	scripts/kbuild.sh $(KVER) eventboost Kbuild governor uapi

userlib:
	$(MAKE) -C userlib OUT=$(OUT)/userlib PREFIX=$(PREFIX) LIBDIR=$(LIBDIR) INCLUDEDIR=$(INCLUDEDIR)

check:
	scripts/check.sh

demo:
	scripts/demo.sh

experiment:
	scripts/experiment.sh

bench:
	scripts/bench.sh

stress:
	scripts/stress.sh long

fuzz:
	scripts/stress.sh fuzz-long

check-debug:
	scripts/check-debug.sh

# install: the module when KVER's headers are there (else it says so and
# goes on: install-dkms, or install the headers), then install-user.
# install-user: library, headers, ebctl, man page, completion, udev rule,
# unit; needs no kernel headers.
install: install-module install-user

install-module:
	@if [ -n "$(KVER)" ] && [ -d "$(or $(EB_KDIR),/lib/modules/$(KVER)/build)" ]; then \
		$(MAKE) --no-print-directory module KVER=$(KVER) && \
		install -D -m 0644 $(OUT)/$(KVER)/eventboost/eventboost.ko $(MODDIR)/eventboost.ko && \
		if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi; \
	else \
		echo "eventboost: not installing the module: no headers for kernel '$(KVER)'" \
		     "(apt-get install linux-headers-$(or $(KVER),$$(uname -r)), or make install-dkms);" \
		     "installing the library and tools only" >&2; \
	fi

install-user: userlib
	install -D -m 0755 $(OUT)/userlib/libeventboost.so.$(SOVERSION) $(DLIBDIR)/libeventboost.so.$(SOVERSION)
	ln -sf libeventboost.so.$(SOVERSION) $(DLIBDIR)/libeventboost.so.$(SOMAJOR)
	ln -sf libeventboost.so.$(SOMAJOR) $(DLIBDIR)/libeventboost.so
	install -m 0644 $(OUT)/userlib/libeventboost.a $(DLIBDIR)/libeventboost.a
	install -D -m 0644 $(OUT)/userlib/eventboost.pc $(DLIBDIR)/pkgconfig/eventboost.pc
	install -D -m 0644 userlib/eventboost.h $(INCDIR)/eventboost.h
	install -D -m 0644 uapi/linux/eventboost.h $(INCDIR)/eventboost/linux/eventboost.h
	install -D -m 0755 $(OUT)/userlib/ebctl $(BINDIR)/ebctl
	install -D -m 0644 docs/ebctl.8 $(MANDIR)/man8/ebctl.8
	install -D -m 0644 docs/eventboost-select-governor.8 $(MANDIR)/man8/eventboost-select-governor.8
	install -D -m 0644 packaging/bash-completion/ebctl $(BASHCOMPDIR)/ebctl
	install -D -m 0644 packaging/60-eventboost.rules $(UDEVDIR)/60-eventboost.rules
	install -D -m 0755 packaging/eventboost-select-governor $(SBINDIR)/eventboost-select-governor
	install -d $(UNITDIR)
	sed 's,@SBINDIR@,$(PREFIX)/sbin,' packaging/eventboost-governor.service \
		> $(UNITDIR)/eventboost-governor.service
	install -D -m 0644 packaging/default-eventboost $(DOCDIR)/default-eventboost
	install -D -m 0644 packaging/modprobe-eventboost.conf $(DOCDIR)/modprobe-eventboost.conf
	install -D -m 0644 packaging/cdi/eventboost.json $(DOCDIR)/cdi-eventboost.json
	@if [ -z "$(DESTDIR)" ]; then \
		getent group eventboost >/dev/null || groupadd --system eventboost; \
		udevadm control --reload 2>/dev/null || true; \
		ldconfig; \
	fi

uninstall:
	rm -f $(MODDIR)/eventboost.ko $(DLIBDIR)/libeventboost.so* $(DLIBDIR)/libeventboost.a \
	      $(DLIBDIR)/pkgconfig/eventboost.pc $(INCDIR)/eventboost.h \
	      $(INCDIR)/eventboost/linux/eventboost.h $(BINDIR)/ebctl $(UDEVDIR)/60-eventboost.rules \
	      $(MANDIR)/man8/ebctl.8 $(MANDIR)/man8/eventboost-select-governor.8 $(BASHCOMPDIR)/ebctl \
	      $(SBINDIR)/eventboost-select-governor $(UNITDIR)/eventboost-governor.service \
	      $(DOCDIR)/default-eventboost $(DOCDIR)/modprobe-eventboost.conf \
	      $(DOCDIR)/cdi-eventboost.json
	-rmdir $(INCDIR)/eventboost/linux $(INCDIR)/eventboost $(DOCDIR) 2>/dev/null
	@if [ -z "$(DESTDIR)" ]; then \
		if [ -n "$(KVER)" ] && [ -d /lib/modules/$(KVER) ]; then depmod -a $(KVER); fi; \
		ldconfig; \
	fi

# The module's sources where DKMS looks for them; on the live system also
# dkms add/build/install for the running kernel (and every later one).
install-dkms:
	install -d $(DKMSDIR)/governor $(DKMSDIR)/uapi/linux
	install -m 0644 Kbuild $(DKMSDIR)/Kbuild
	install -m 0644 governor/*.c governor/*.h $(DKMSDIR)/governor/
	install -m 0644 uapi/linux/eventboost.h $(DKMSDIR)/uapi/linux/
	sed 's,@VERSION@,$(LIBVER),' packaging/dkms.conf > $(DKMSDIR)/dkms.conf
	@if [ -z "$(DESTDIR)" ]; then \
		dkms add -m eventboost -v $(LIBVER) && \
		dkms install -m eventboost -v $(LIBVER); \
	fi

uninstall-dkms:
	@if [ -z "$(DESTDIR)" ]; then dkms remove -m eventboost -v $(LIBVER) --all || true; fi
	rm -rf $(DKMSDIR)

clean:
	rm -rf build

.PHONY: all module userlib check demo bench experiment stress fuzz check-debug install install-module install-user uninstall install-dkms uninstall-dkms clean
