# Accelerator plugins. All modules are built into plugins/ so that the build
# tree has one plugin directory (plugins/.libs) the uninstalled core finds.
include $(srcdir)/plugins/cpu_ref/local.mk
include $(srcdir)/plugins/cpu_xnnpack/local.mk
include $(srcdir)/plugins/gpu_common/local.mk
include $(srcdir)/plugins/gpu_cl/local.mk
include $(srcdir)/plugins/gpu_vk/local.mk
include $(srcdir)/plugins/gpu_gl/local.mk

# Plugins are dlopen()ed by path, never linked against: their libtool .la
# files serve no one once installed (distributions delete them too).
# Without them libtool's uninstall cannot find the modules, so remove those
# by name too. Only ours: the directory may be shared (--with-plugindir).
# (plugindir holds data in automake's sense, hence the data hook.)
install-data-hook:
	for module in $(plugin_LTLIBRARIES); do \
	  rm -f "$(DESTDIR)$(plugindir)/`basename $$module`"; \
	done
uninstall-hook:
	for module in $(plugin_LTLIBRARIES); do \
	  rm -f "$(DESTDIR)$(plugindir)/`basename $$module .la`.so"; \
	done
