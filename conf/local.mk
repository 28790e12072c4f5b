# The default configuration, installed to $(sysconfdir)/tflaccel/.
tflaccelconfdir = $(sysconfdir)/tflaccel
dist_tflaccelconf_DATA = conf/tflaccel.ini
