//! What a header is made of (below the exports, whose declarations make header items).

/// One struct field: its C type, name, documentation and the Rust offset it must land at.
#[derive(Debug, Clone)]
pub struct Field {
    /// C type, with an array suffix in `array` (`uint32_t`, `void *`).
    pub ctype: &'static str,
    /// Field name.
    pub name: &'static str,
    /// Array length, or 0 for a scalar.
    pub array: usize,
    /// Documentation.
    pub doc: &'static str,
    /// `offset_of!` of the Rust field.
    pub rust_offset: usize,
}

/// One declaration of a header.
#[derive(Debug, Clone)]
pub enum Item {
    /// A C enum: `typedef enum Name {..} Name;`, or a bare `enum Name {..};` if not typedef.
    Enum {
        /// Enum name.
        name: &'static str,
        /// Documentation.
        doc: &'static str,
        /// Whether to typedef it.
        typedef: bool,
        /// Constant names, values and docs.
        values: Vec<(String, i64, String)>,
    },
    /// `#define NAME VALUE`.
    Define {
        /// Macro name.
        name: &'static str,
        /// Replacement text.
        value: String,
        /// Documentation.
        doc: &'static str,
    },
    /// An opaque handle: `typedef struct Name Name;`.
    Opaque {
        /// Type name.
        name: &'static str,
        /// Documentation.
        doc: &'static str,
    },
    /// A struct with its `_INIT` macro.
    Struct {
        /// Struct name.
        name: &'static str,
        /// Documentation.
        doc: &'static str,
        /// Fields in order.
        fields: Vec<Field>,
        /// `size_of` of the Rust struct.
        rust_size: usize,
        /// Name of the initialiser macro; empty for an embedded struct without one.
        init: &'static str,
        /// Designated initialisers after `.struct_size` (`.acquire = VMAFX_FENCE_INIT`).
        init_extra: &'static str,
    },
    /// Verbatim C (a typedef of a callback, a forward declaration).
    Raw(String),
    /// A function prototype.
    Func {
        /// Return type.
        ret: String,
        /// Function name.
        name: &'static str,
        /// Parameters, each as C declares it (`const VmafxFrameDesc *desc`); none is `void`.
        params: Vec<String>,
        /// Documentation.
        doc: &'static str,
        /// Whether it is exported (`VMAFX_EXPORT`) or a hidden test hook.
        export: bool,
    },
}

/// One header file.
#[derive(Debug, Clone)]
pub struct Header {
    /// Path relative to the crate root.
    pub path: &'static str,
    /// Include guard.
    pub guard: &'static str,
    /// One-line description.
    pub brief: &'static str,
    /// Headers included, in order (`<stdint.h>`, `<vmafx/types.h>`).
    pub includes: Vec<&'static str>,
    /// Declarations in order.
    pub items: Vec<Item>,
}

/// A field tied to the Rust struct `$s`'s field `$f`.
#[macro_export]
#[doc(hidden)]
macro_rules! field {
    ($s:ty, $f:ident, $ctype:expr, $doc:expr) => {
        $crate::header_items::Field {
            ctype: $ctype,
            name: stringify!($f),
            array: 0,
            doc: $doc,
            rust_offset: std::mem::offset_of!($s, $f),
        }
    };
    ($s:ty, $f:ident [$n:expr], $ctype:expr, $doc:expr) => {
        $crate::header_items::Field {
            ctype: $ctype,
            name: stringify!($f),
            array: $n,
            doc: $doc,
            rust_offset: std::mem::offset_of!($s, $f),
        }
    };
}

/// The prototype of the export `$path`, declared with [`c_export!`](crate::c_export).
#[macro_export]
#[doc(hidden)]
macro_rules! func {
    ($($seg:ident)::+) => {
        $($seg)::+::item()
    };
}
