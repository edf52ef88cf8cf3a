# eventboost — see README.md.
#   make                      module for KVER and libeventboost
#   make module KVER=<rel>    eventboost.ko for one installed kernel's headers
#   make userlib              libeventboost (.so, .a), eventboost.pc
#   make check                all tests, in QEMU guests on 6.1, 6.12, 6.12-rt
#   make install DESTDIR= PREFIX= KVER=    /  make uninstall (same variables)
KVER ?= $(shell scripts/default-kver.sh)
PREFIX ?= /usr/local
DESTDIR ?=
export PREFIX

OUT := $(CURDIR)/build
MODDIR := $(DESTDIR)/lib/modules/$(KVER)/extra
LIBDIR := $(DESTDIR)$(PREFIX)/lib
INCDIR := $(DESTDIR)$(PREFIX)/include
BINDIR := $(DESTDIR)$(PREFIX)/bin
UDEVDIR := $(DESTDIR)/lib/udev/rules.d
LIBVER := 0.1.0

all: module userlib

module:
	@test -n "$(KVER)" || { echo "error: no kernel headers installed (apt-get install linux-headers-amd64)"; exit 2; }
	scripts/kbuild.sh $(KVER) eventboost Kbuild governor uapi

userlib:
	$(MAKE) -C userlib OUT=$(OUT)/userlib

check:
	scripts/check.sh

install: module userlib
	install -D -m 0644 $(OUT)/$(KVER)/eventboost/eventboost.ko $(MODDIR)/eventboost.ko
	install -D -m 0755 $(OUT)/userlib/libeventboost.so.$(LIBVER) $(LIBDIR)/libeventboost.so.$(LIBVER)
	ln -sf libeventboost.so.$(LIBVER) $(LIBDIR)/libeventboost.so.1
	ln -sf libeventboost.so.1 $(LIBDIR)/libeventboost.so
	install -m 0644 $(OUT)/userlib/libeventboost.a $(LIBDIR)/libeventboost.a
	install -D -m 0644 $(OUT)/userlib/eventboost.pc $(LIBDIR)/pkgconfig/eventboost.pc
	install -D -m 0644 userlib/eventboost.h $(INCDIR)/eventboost.h
	install -D -m 0644 uapi/linux/eventboost.h $(INCDIR)/linux/eventboost.h
	install -D -m 0755 $(OUT)/userlib/ebctl $(BINDIR)/ebctl
	install -D -m 0644 packaging/60-eventboost.rules $(UDEVDIR)/60-eventboost.rules
	@if [ -z "$(DESTDIR)" ]; then \
		depmod -a $(KVER); \
		getent group eventboost >/dev/null || groupadd --system eventboost; \
		udevadm control --reload 2>/dev/null || true; \
		ldconfig; \
	fi

uninstall:
	rm -f $(MODDIR)/eventboost.ko $(LIBDIR)/libeventboost.so* $(LIBDIR)/libeventboost.a \
	      $(LIBDIR)/pkgconfig/eventboost.pc $(INCDIR)/eventboost.h \
	      $(INCDIR)/linux/eventboost.h $(BINDIR)/ebctl $(UDEVDIR)/60-eventboost.rules
	@if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); ldconfig; fi

clean:
	rm -rf build

.PHONY: all module userlib check install uninstall clean
