#include "config.h"

#include "core/tflite/flatbuffer.h"
#include "tools/tflaccel/model_metadata.h"

/* Field slots of metadata_schema.fbs (order of declaration; a union takes
 * two: its type, then its value). */
enum { MODEL_METADATA_SUBGRAPH_METADATA = 3 };
enum { SUBGRAPH_METADATA_INPUT_TENSOR_METADATA = 2 };
enum { TENSOR_METADATA_PROCESS_UNITS = 4 };
enum { PROCESS_UNIT_OPTIONS_TYPE = 0, PROCESS_UNIT_OPTIONS = 1 };
enum { NORMALIZATION_OPTIONS_MEAN = 0, NORMALIZATION_OPTIONS_STD = 1 };
/* ProcessUnitOptions: NONE = 0, NormalizationOptions = 1, ... */
#define PROCESS_UNIT_NORMALIZATION 1

/* Fills values[channels] from a vector of 1 (broadcast) or channels floats. */
static tflaccel_status read_per_channel(const fb_vector *vector, const char *what,
                                        uint32_t channels, float *values) {
  if (vector->length != 1 && vector->length != channels)
    return tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                "%s has %u values for an input of %u channels", what,
                                vector->length, channels);
  for (uint32_t c = 0; c < channels; ++c)
    values[c] = fb_vector_f32(vector, vector->length == 1 ? 0 : c);
  return NULL;
}

static tflaccel_status read_normalization(const fb_table *options, uint32_t channels,
                                          image_normalization *normalization) {
  fb_vector mean, std;
  tflaccel_status status = fb_read_vector(options, NORMALIZATION_OPTIONS_MEAN, 4, &mean, NULL);
  if (status == NULL) status = fb_read_vector(options, NORMALIZATION_OPTIONS_STD, 4, &std, NULL);
  if (status == NULL) status = read_per_channel(&mean, "mean", channels, normalization->mean);
  if (status == NULL) status = read_per_channel(&std, "std", channels, normalization->std);
  for (uint32_t c = 0; status == NULL && c < channels; ++c)
    if (normalization->std[c] == 0.0f)
      status = tflaccel_status_make(TFLACCEL_INVALID_MODEL, "std of channel %u is 0", c);
  return status;
}

tflaccel_status model_metadata_input_normalization(const void *metadata, size_t size,
                                                   uint32_t input, uint32_t channels,
                                                   image_normalization *normalization,
                                                   int *found) {
  *found = 0;
  if (channels == 0 || channels > 3)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "normalization of %u channels (1 to 3 are read)", channels);
  fb_file file;
  fb_file_init(&file, metadata, size);
  fb_table root;
  tflaccel_status status = fb_root(&file, "M001", &root);
  fb_vector subgraphs, inputs, units;
  if (status == NULL)
    status = fb_read_vector(&root, MODEL_METADATA_SUBGRAPH_METADATA, 4, &subgraphs, NULL);
  if (status != NULL || subgraphs.length == 0) goto done;
  fb_table subgraph, tensor;
  status = fb_vector_table(&subgraphs, 0, &subgraph);
  if (status == NULL)
    status = fb_read_vector(&subgraph, SUBGRAPH_METADATA_INPUT_TENSOR_METADATA, 4, &inputs, NULL);
  if (status != NULL || input >= inputs.length) goto done;
  status = fb_vector_table(&inputs, input, &tensor);
  if (status == NULL)
    status = fb_read_vector(&tensor, TENSOR_METADATA_PROCESS_UNITS, 4, &units, NULL);
  for (uint32_t u = 0; status == NULL && u < units.length; ++u) {
    fb_table unit, options;
    uint8_t type = 0;
    int present = 0;
    status = fb_vector_table(&units, u, &unit);
    if (status == NULL) status = fb_read_u8(&unit, PROCESS_UNIT_OPTIONS_TYPE, 0, &type);
    if (status != NULL || type != PROCESS_UNIT_NORMALIZATION) continue;
    status = fb_read_table(&unit, PROCESS_UNIT_OPTIONS, &options, &present);
    if (status == NULL && !present)
      status = tflaccel_status_make(TFLACCEL_INVALID_MODEL,
                                    "process unit %u is NormalizationOptions without options", u);
    if (status == NULL) status = read_normalization(&options, channels, normalization);
    if (status == NULL) {
      *found = 1;
      break;
    }
  }
done:
  if (status != NULL)
    return tflaccel_status_annotate(status, "%s: input %u's NormalizationOptions",
                                    MODEL_METADATA_NAME, input);
  return NULL;
}

tflaccel_status model_input_normalization(const tflaccel_model *model, uint32_t input,
                                          uint32_t channels, image_normalization *normalization,
                                          int *found) {
  const void *data = NULL;
  size_t size = 0;
  *found = 0;
  tflaccel_status status = tflaccel_model_metadata_buffer(model, MODEL_METADATA_NAME, &data, &size);
  if (status != NULL) {
    int absent = tflaccel_status_code_of(status) == TFLACCEL_NOT_FOUND;
    if (absent) {
      tflaccel_status_free(status);
      return NULL;
    }
    return status;
  }
  return model_metadata_input_normalization(data, size, input, channels, normalization, found);
}
