# The .tflite reader, graph IR and load-time folding.
