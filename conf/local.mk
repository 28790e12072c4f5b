# The default configuration, installed to $(sysconfdir)/tflaccel/.
tflaccelconfdir = $(sysconfdir)/tflaccel
dist_tflaccelconf_DATA = conf/tflaccel.ini

# plugins.d: plugin packages drop their own [plugin.NAME] sections here
# (core/config/plugin_dropins.h); the directory itself belongs to tflaccel.
install-data-local:
	$(MKDIR_P) "$(DESTDIR)$(tflaccelconfdir)/plugins.d"
uninstall-local:
	-rmdir "$(DESTDIR)$(tflaccelconfdir)/plugins.d"
