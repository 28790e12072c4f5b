/* Keeps a Vulkan layer's library loaded for the life of the process, for
 * LeakSanitizer: the Vulkan loader dlclose()s a layer when its instance is
 * destroyed, after which a leak made inside the layer shows only as
 * "<unknown module>" and no suppression can name it. The library is opened
 * RTLD_LOCAL (its vkGetInstanceProcAddr stays out of the global namespace,
 * where preloading it would put it in front of the loader's), so the
 * loader's own dlopen() finds it already mapped and its dlclose() leaves it
 * so. */
#ifndef TFLACCEL_TESTS_GPU_VK_LAYER_KEEP_LOADED_H
#define TFLACCEL_TESTS_GPU_VK_LAYER_KEEP_LOADED_H

/* Finds layer_name's manifest in the explicit layer directories the loader
 * searches (VK_LAYER_PATH, else the system ones) and dlopen()s its
 * library_path as the loader resolves it (a bare name through the library
 * search path, a relative path from the manifest's directory). Returns 0
 * when it is loaded, -1 with a message on stderr when no manifest names the
 * layer or the library cannot be opened. The handle is never closed. */
int vk_layer_keep_loaded(const char *layer_name);

#endif
