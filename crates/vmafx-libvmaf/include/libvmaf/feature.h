/* libvmaf 3.2.0 C API, as implemented by vmafx's drop-in (crates/vmafx-libvmaf). */

#ifndef VMAFX_LIBVMAF_FEATURE_H
#define VMAFX_LIBVMAF_FEATURE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Options of one feature extractor: key=value text pairs. */
typedef struct VmafFeatureDictionary VmafFeatureDictionary;

/* Adds or replaces key=val in *dict, creating the dictionary when *dict is NULL. */
int vmaf_feature_dictionary_set(VmafFeatureDictionary **dict, const char *key,
                                const char *val);

/* Frees *dict and sets it to NULL; only needed when no call took the dictionary. */
int vmaf_feature_dictionary_free(VmafFeatureDictionary **dict);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_LIBVMAF_FEATURE_H */
