/* LSTM and UNIDIRECTIONAL_SEQUENCE_LSTM: the tensor slots of TFLite's full
 * LSTM kernel, the shape of one op, and the float and integer steps. */
#ifndef TFLACCEL_CPU_REF_LSTM_COMMON_H
#define TFLACCEL_CPU_REF_LSTM_COMMON_H

#include <stdint.h>

#include "plugins/cpu_ref/kernel.h"

enum lstm_slot {
  LSTM_INPUT = 0,
  LSTM_INPUT_TO_INPUT_WEIGHTS = 1, /* optional (absent: CIFG) */
  LSTM_INPUT_TO_FORGET_WEIGHTS = 2,
  LSTM_INPUT_TO_CELL_WEIGHTS = 3,
  LSTM_INPUT_TO_OUTPUT_WEIGHTS = 4,
  LSTM_RECURRENT_TO_INPUT_WEIGHTS = 5, /* optional */
  LSTM_RECURRENT_TO_FORGET_WEIGHTS = 6,
  LSTM_RECURRENT_TO_CELL_WEIGHTS = 7,
  LSTM_RECURRENT_TO_OUTPUT_WEIGHTS = 8,
  LSTM_CELL_TO_INPUT_WEIGHTS = 9, /* optional peephole */
  LSTM_CELL_TO_FORGET_WEIGHTS = 10,
  LSTM_CELL_TO_OUTPUT_WEIGHTS = 11,
  LSTM_INPUT_GATE_BIAS = 12, /* optional */
  LSTM_FORGET_GATE_BIAS = 13,
  LSTM_CELL_GATE_BIAS = 14,
  LSTM_OUTPUT_GATE_BIAS = 15,
  LSTM_PROJECTION_WEIGHTS = 16, /* optional */
  LSTM_PROJECTION_BIAS = 17,    /* optional */
  LSTM_OUTPUT_STATE = 18,       /* variable */
  LSTM_CELL_STATE = 19,         /* variable */
  LSTM_INPUT_LAYER_NORM = 20,   /* optional */
  LSTM_FORGET_LAYER_NORM = 21,
  LSTM_CELL_LAYER_NORM = 22,
  LSTM_OUTPUT_LAYER_NORM = 23,
  LSTM_SLOT_COUNT = 24,
};

/* The four gates, in the order of their weight slots. */
enum lstm_gate { LSTM_GATE_INPUT = 0, LSTM_GATE_FORGET, LSTM_GATE_CELL, LSTM_GATE_OUTPUT };

typedef struct lstm_shape {
  int32_t n_batch, n_input, n_cell, n_output, max_time;
  int time_major;
  int use_cifg, use_peephole, use_projection, use_layer_norm;
  int32_t activation; /* tflaccel_fused_activation of the cell gate and output */
  float cell_clip, proj_clip;
} lstm_shape;

/* Fills the shape of an LSTM / UNIDIRECTIONAL_SEQUENCE_LSTM op; returns 1,
 * or 0 with a reason when the tensors do not form a valid full LSTM. */
int lstm_describe(const tflaccel_graph_view *graph, const tflaccel_op_desc *op, lstm_shape *shape,
                  char *reason);

/* float32 LSTM (lstm_float.c). */
int lstm_float_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                     const lstm_shape *shape, char *reason);
tflaccel_status lstm_float_prepare(const cpu_op_context *context, const lstm_shape *shape,
                                   void **op_data);
void lstm_float_release(const tflaccel_host_services *host, void *op_data);
tflaccel_status lstm_float_eval(const cpu_op_context *context);

/* int8 x int8 -> int16 gates LSTM with int16 cell state (lstm_integer.c). */
int lstm_integer_check(const tflaccel_graph_view *graph, const tflaccel_op_desc *op,
                       const lstm_shape *shape, char *reason);
tflaccel_status lstm_integer_prepare(const cpu_op_context *context, const lstm_shape *shape,
                                     void **op_data);
void lstm_integer_release(const tflaccel_host_services *host, void *op_data);
tflaccel_status lstm_integer_eval(const cpu_op_context *context);

#endif
