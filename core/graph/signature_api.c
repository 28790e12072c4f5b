/* tflaccel_model_signature_*: a model's SignatureDefs (named inputs and
 * outputs, as TFLite's signature runners see them). The loader validated
 * them; they are read again from the file's bytes when asked for, so the
 * model keeps no copy and the names point into the file. */
#include "config.h"

#include "core/tflite/flatbuffer.h"
#include "core/graph/model_internal.h"
#include "core/tflite/schema.h"

/* *file must outlive *signature: tables point at it. */
static tflaccel_status find_signature(const tflaccel_model *model, uint32_t index, fb_file *file,
                                      fb_table *signature) {
  if (model == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "signature: NULL model");
  if (index >= model->stored.signature_count)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT,
                                "signature %u does not exist (the model has %u)", index,
                                model->stored.signature_count);
  fb_file_init(file, model->bytes, model->size);
  fb_table root;
  fb_vector signatures;
  tflaccel_status status = fb_root(file, TFLITE_FILE_IDENTIFIER, &root);
  if (status == NULL)
    status = fb_read_vector(&root, TFLITE_MODEL_SIGNATURE_DEFS, 4, &signatures, NULL);
  if (status == NULL) status = fb_vector_table(&signatures, index, signature);
  return tflaccel_status_annotate(status, "signature %u", index);
}

tflaccel_status tflaccel_model_signature_info(const tflaccel_model *model, uint32_t index,
                                              tflaccel_signature_info *info) {
  if (info == NULL || info->struct_size < sizeof *info)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "signature_info: struct_size too small");
  fb_file file;
  fb_table signature;
  tflaccel_status status = find_signature(model, index, &file, &signature);
  uint32_t subgraph = 0;
  fb_vector inputs, outputs;
  if (status == NULL) status = fb_read_u32(&signature, TFLITE_SIGNATURE_SUBGRAPH_INDEX, 0, &subgraph);
  if (status == NULL) status = fb_read_vector(&signature, TFLITE_SIGNATURE_INPUTS, 4, &inputs, NULL);
  if (status == NULL) status = fb_read_vector(&signature, TFLITE_SIGNATURE_OUTPUTS, 4, &outputs, NULL);
  if (status != NULL) return tflaccel_status_annotate(status, "signature %u", index);
  info->struct_size = sizeof *info;
  info->key = model->stored.signature_keys[index];
  info->subgraph_index = subgraph;
  info->input_count = inputs.length;
  info->output_count = outputs.length;
  return NULL;
}

tflaccel_status tflaccel_model_signature_tensor(const tflaccel_model *model, uint32_t signature,
                                                int32_t is_output, uint32_t index,
                                                const char **name, uint32_t *tensor_index) {
  if (name == NULL || tensor_index == NULL)
    return tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "signature tensor: NULL argument");
  const char *what = is_output ? "output" : "input";
  fb_file file;
  fb_table table, map;
  fb_vector maps;
  tflaccel_status status = find_signature(model, signature, &file, &table);
  if (status != NULL) return status;
  status = fb_read_vector(&table, is_output ? TFLITE_SIGNATURE_OUTPUTS : TFLITE_SIGNATURE_INPUTS,
                          4, &maps, NULL);
  if (status == NULL && index >= maps.length)
    status = tflaccel_status_make(TFLACCEL_INVALID_ARGUMENT, "%s %u does not exist (it has %u)",
                                  what, index, maps.length);
  if (status == NULL) status = fb_vector_table(&maps, index, &map);
  if (status == NULL) status = fb_read_string(&map, TFLITE_TENSOR_MAP_NAME, name, NULL);
  if (status == NULL) status = fb_read_u32(&map, TFLITE_TENSOR_MAP_TENSOR_INDEX, 0, tensor_index);
  if (status != NULL) return tflaccel_status_annotate(status, "signature %u", signature);
  if (*name == NULL) *name = "";
  return NULL;
}
