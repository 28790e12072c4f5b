# The tflaccel command-line tool.
