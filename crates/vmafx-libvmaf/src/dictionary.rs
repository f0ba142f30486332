//! `VmafFeatureDictionary`: an extractor's `key=value` options, owned by C until a call
//! takes it.

use std::ffi::{c_char, c_int, c_uint, CString};

use crate::errno::EINVAL;
use crate::{guard, text};

/// libvmaf's `VmafDictionaryEntry`: a key and its value.
#[derive(Debug)]
#[repr(C)]
struct Entry {
    key: *const c_char,
    val: *const c_char,
}

/// The options behind a `VmafFeatureDictionary *`, in the order they were set.
///
/// Laid out as libvmaf's private `VmafDictionary` first (`VmafDictionaryEntry *entry;
/// unsigned size, cnt;`): a client reading the entries libvmaf's way finds them, in the
/// order set, as NUL-terminated strings. What follows is this library's own.
#[derive(Debug)]
#[repr(C)]
pub struct FeatureDictionary {
    /// libvmaf's `entry`: points into `c_entries`.
    entry: *mut Entry,
    /// libvmaf's `size` (entries allocated) and `cnt` (entries set).
    size: c_uint,
    cnt: c_uint,
    c_entries: Vec<Entry>,
    c_texts: Vec<(CString, CString)>,
    /// `(key, value)` pairs; a key appears once.
    pub entries: Vec<(String, String)>,
}

impl Default for FeatureDictionary {
    fn default() -> Self {
        FeatureDictionary {
            entry: std::ptr::null_mut(),
            size: 0,
            cnt: 0,
            c_entries: Vec::new(),
            c_texts: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl FeatureDictionary {
    /// Sets `key` to `val` (a key set twice keeps its place and takes the last value), and
    /// lays the entries out again as libvmaf's array.
    fn set(&mut self, key: &str, val: &str) {
        match self.entries.iter_mut().find(|(k, _)| k == key) {
            Some(e) => e.1 = val.to_string(),
            None => self.entries.push((key.to_string(), val.to_string())),
        }
        // Keys and values came from C strings: they hold no NUL.
        self.c_texts = self
            .entries
            .iter()
            .map(|(k, v)| {
                (
                    CString::new(k.as_str()).unwrap_or_default(),
                    CString::new(v.as_str()).unwrap_or_default(),
                )
            })
            .collect();
        self.c_entries = self
            .c_texts
            .iter()
            .map(|(k, v)| Entry {
                key: k.as_ptr(),
                val: v.as_ptr(),
            })
            .collect();
        self.entry = self.c_entries.as_mut_ptr();
        self.size = self.c_entries.capacity() as c_uint;
        self.cnt = self.c_entries.len() as c_uint;
    }
}

/// Takes the dictionary behind `dict` (NULL: none) and frees it.
///
/// # Safety
/// `dict` is NULL or a pointer from [`vmaf_feature_dictionary_set`] not yet taken.
pub(crate) unsafe fn take(dict: *mut FeatureDictionary) -> FeatureDictionary {
    if dict.is_null() {
        return FeatureDictionary::default();
    }
    // SAFETY: made by Box::into_raw in vmaf_feature_dictionary_set, not yet taken.
    *unsafe { Box::from_raw(dict) }
}

/// Borrows the dictionary behind `dict` (NULL: empty).
///
/// # Safety
/// As [`take`], and the dictionary is not freed while the borrow lives.
pub(crate) unsafe fn peek<'a>(dict: *const FeatureDictionary) -> Option<&'a FeatureDictionary> {
    // SAFETY: NULL or a live Box allocation by the caller's contract.
    unsafe { dict.as_ref() }
}

/// Sets `key=val` in `*dict`, creating the dictionary when `*dict` is NULL; a key set
/// twice keeps the last value.
///
/// # Safety
/// `dict` is NULL or points to NULL or to a dictionary made here; `key` and `val` are NULL
/// or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn vmaf_feature_dictionary_set(
    dict: *mut *mut FeatureDictionary,
    key: *const c_char,
    val: *const c_char,
) -> c_int {
    guard(|| {
        // SAFETY: key and val are NULL or NUL-terminated (contract above).
        let (Some(key), Some(val)) = (unsafe { text(key) }, unsafe { text(val) }) else {
            return -EINVAL;
        };
        if dict.is_null() {
            return -EINVAL;
        }
        // SAFETY: dict is non-NULL and points to a pointer slot (contract above).
        let slot = unsafe { &mut *dict };
        if slot.is_null() {
            *slot = Box::into_raw(Box::default());
        }
        // SAFETY: *slot is a live dictionary made here.
        unsafe { &mut **slot }.set(key, val);
        0
    })
}

/// Frees `*dict` and clears it (a NULL `*dict` is fine; a NULL `dict` is -EINVAL).
///
/// # Safety
/// `dict` is NULL or points to NULL or to a dictionary made here and not taken.
#[no_mangle]
pub unsafe extern "C" fn vmaf_feature_dictionary_free(dict: *mut *mut FeatureDictionary) -> c_int {
    guard(|| {
        if dict.is_null() {
            return -EINVAL;
        }
        // SAFETY: dict is non-NULL and points to a pointer slot (contract above).
        let slot = unsafe { &mut *dict };
        // SAFETY: *slot is NULL or a dictionary not yet taken.
        drop(unsafe { take(*slot) });
        *slot = std::ptr::null_mut();
        0
    })
}
