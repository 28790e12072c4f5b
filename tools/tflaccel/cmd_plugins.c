/* tflaccel plugins [--json]: every configured plugin, whether it loaded and
 * why not, and its devices. Exits 0 even when some are unavailable. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tools/tflaccel/commands.h"
#include "tools/tflaccel/json_writer.h"
#include "tflaccel/tflaccel.h"

static const char *device_type_name(int32_t type) {
  switch (type) {
  case TFLACCEL_DEVICE_CPU: return "cpu";
  case TFLACCEL_DEVICE_INTEGRATED_GPU: return "integrated-gpu";
  case TFLACCEL_DEVICE_DISCRETE_GPU: return "discrete-gpu";
  case TFLACCEL_DEVICE_VIRTUAL_GPU: return "virtual-gpu";
  default: return "other";
  }
}

static const char *fp16_support(uint32_t caps) {
  if (caps & TFLACCEL_DEVICE_CAP_FP16_ARITHMETIC) return "storage+arithmetic";
  if (caps & TFLACCEL_DEVICE_CAP_FP16_STORAGE) return "storage";
  return "no";
}

static void print_abi(FILE *stream, uint32_t abi_version) {
  if (abi_version == 0) fputs("-", stream);
  else fprintf(stream, "%u.%u", abi_version >> 16, abi_version & 0xFFFFu);
}

static void print_text(tflaccel_environment *environment) {
  const char *config_path = tflaccel_environment_config_path(environment);
  printf("config: %s\n", config_path ? config_path : "(built-in defaults)");
  printf("selected order: %s\n", tflaccel_environment_selection(environment));
  const char *notes = tflaccel_environment_selection_notes(environment);
  if (notes != NULL) printf("auto choice:\n%s", notes);
  uint32_t count = tflaccel_environment_plugin_count(environment);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_environment_plugin_info(environment, i, &info);
    if (status != NULL) {
      printf("plugin %u: %s\n", i, tflaccel_status_message(status));
      tflaccel_status_free(status);
      continue;
    }
    printf("\n%s\n", info.name);
    printf("  library:  %s\n", info.library_path);
    printf("  ABI:      ");
    print_abi(stdout, info.abi_version);
    printf("\n  version:  %s\n", info.version[0] ? info.version : "-");
    if (info.available)
      printf("  status:   available\n");
    else if (info.not_installed)
      printf("  status:   %s\n", info.reason ? info.reason : "not installed");
    else
      printf("  status:   unavailable: %s\n", info.reason ? info.reason : "unknown reason");
    for (uint32_t d = 0; d < info.device_count; ++d) {
      tflaccel_device_info device = {.struct_size = sizeof device};
      status = tflaccel_environment_device_info(environment, i, d, &device);
      if (status != NULL) {
        printf("  device %u: %s\n", d, tflaccel_status_message(status));
        tflaccel_status_free(status);
        continue;
      }
      printf("  device %u: %s (%s, %s)\n", d, device.name, device.vendor,
             device_type_name(device.type));
      printf("            driver %s, %s, float16: %s\n", device.driver_version, device.api_version,
             fp16_support(device.caps));
    }
  }
}

/* An entry that could not be described: {"error": message}; frees status. */
static void print_json_error(tflaccel_status status) {
  printf("{\"error\":");
  json_write_string(stdout, tflaccel_status_message(status));
  printf("}");
  tflaccel_status_free(status);
}

static void print_json(tflaccel_environment *environment) {
  printf("{\"config\":");
  json_write_string(stdout, tflaccel_environment_config_path(environment));
  printf(",\"selection\":");
  json_write_string(stdout, tflaccel_environment_selection(environment));
  printf(",\"plugins\":[");
  uint32_t count = tflaccel_environment_plugin_count(environment);
  for (uint32_t i = 0; i < count; ++i) {
    tflaccel_plugin_info info = {.struct_size = sizeof info};
    tflaccel_status status = tflaccel_environment_plugin_info(environment, i, &info);
    if (i) putchar(',');
    if (status != NULL) {
      print_json_error(status);
      continue;
    }
    printf("{\"name\":");
    json_write_string(stdout, info.name);
    printf(",\"library\":");
    json_write_string(stdout, info.library_path);
    printf(",\"abi_version\":\"");
    print_abi(stdout, info.abi_version);
    printf("\",\"version\":");
    json_write_string(stdout, info.version);
    printf(",\"enabled\":%s,\"available\":%s,\"not_installed\":%s,\"reason\":",
           info.enabled ? "true" : "false", info.available ? "true" : "false",
           info.not_installed ? "true" : "false");
    json_write_string(stdout, info.reason);
    printf(",\"selection_rank\":%d,\"devices\":[", (int)info.selection_rank);
    for (uint32_t d = 0; d < info.device_count; ++d) {
      tflaccel_device_info device = {.struct_size = sizeof device};
      if (d) putchar(',');
      status = tflaccel_environment_device_info(environment, i, d, &device);
      if (status != NULL) {
        print_json_error(status);
        continue;
      }
      printf("{\"name\":");
      json_write_string(stdout, device.name);
      printf(",\"vendor\":");
      json_write_string(stdout, device.vendor);
      printf(",\"type\":\"%s\",\"driver_version\":", device_type_name(device.type));
      json_write_string(stdout, device.driver_version);
      printf(",\"api_version\":");
      json_write_string(stdout, device.api_version);
      printf(",\"float16\":\"%s\",\"memory_bytes\":%llu}", fp16_support(device.caps),
             (unsigned long long)device.memory_bytes);
    }
    printf("]}");
  }
  printf("]}\n");
}

int tflaccel_cmd_plugins(int argc, char **argv) {
  int json = 0;
  const char *config_path = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--json")) {
      json = 1;
    } else if (!strcmp(argv[i], "--config") && i + 1 < argc) {
      config_path = argv[++i];
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: tflaccel plugins [--json] [--config FILE]\n"
             "Lists every configured accelerator plugin: library, ABI version, status (with the\n"
             "reason when unavailable) and devices.\n");
      return 0;
    } else {
      fprintf(stderr, "tflaccel plugins: unknown argument '%s' (try --help)\n", argv[i]);
      return 2;
    }
  }
  tflaccel_environment_options options = {.struct_size = sizeof options, .config_path = config_path};
  tflaccel_environment *environment = NULL;
  tflaccel_status status = tflaccel_environment_create(&options, &environment);
  if (status != NULL) {
    fprintf(stderr, "tflaccel plugins: %s\n", tflaccel_status_message(status));
    tflaccel_status_free(status);
    return 1;
  }
  if (json) print_json(environment);
  else print_text(environment);
  tflaccel_environment_destroy(environment);
  return 0;
}
