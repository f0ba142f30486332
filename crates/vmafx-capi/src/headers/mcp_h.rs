//! mcp.h: the embedded MCP server.

use crate::header_items::{Header, Item};
use crate::mcp::{self, VmafxMcpConfig, VmafxMcpSseConfig, VmafxMcpStdioConfig, VmafxMcpUdsConfig};
use crate::{field, func};

/// mcp.h.
pub fn mcp_h() -> Header {
    type C = VmafxMcpConfig;
    type S = VmafxMcpSseConfig;
    type U = VmafxMcpUdsConfig;
    type D = VmafxMcpStdioConfig;
    let size = "Size of this struct as the caller compiled it; set by the _INIT macro.";
    Header {
        path: "include/vmafx/mcp.h",
        guard: "VMAFX_MCP_H",
        brief: "The embedded MCP server (Model Context Protocol, JSON-RPC 2.0): an assistant scores pairs and reads their scores and provenance through it.",
        includes: vec!["<stddef.h>", "<stdint.h>", "<vmafx/types.h>", "<vmafx/error.h>", "<vmafx/context.h>"],
        items: vec![
            Item::Enum {
                name: "VmafxMcpTransport",
                doc: "Transport of the embedded MCP server (ABI 0.1.6).",
                typedef: true,
                values: vec![
                    ("VMAFX_MCP_TRANSPORT_SSE".into(), mcp::TRANSPORT_SSE.into(), "Server-sent events over loopback HTTP.".into()),
                    ("VMAFX_MCP_TRANSPORT_UDS".into(), mcp::TRANSPORT_UDS.into(), "A Unix domain socket.".into()),
                    ("VMAFX_MCP_TRANSPORT_STDIO".into(), mcp::TRANSPORT_STDIO.into(), "A pair of file descriptors.".into()),
                ],
            },
            Item::Opaque { name: "VmafxMcpServer", doc: "The embedded MCP server of a context (ABI 0.1.6)." },
            Item::Raw("typedef struct VmafxMcpConfig VmafxMcpConfig;\ntypedef struct VmafxMcpSseConfig VmafxMcpSseConfig;\ntypedef struct VmafxMcpUdsConfig VmafxMcpUdsConfig;\ntypedef struct VmafxMcpStdioConfig VmafxMcpStdioConfig;".into()),
            Item::Struct {
                name: "VmafxMcpConfig",
                doc: "How to create an MCP server. Initialise with VMAFX_MCP_CONFIG_INIT (ABI 0.1.6).",
                fields: vec![
                    field!(C, struct_size, "uint32_t", size),
                    field!(C, queue_depth, "uint32_t", "Requests queued per frame; 0 takes the default (this server answers each as it comes)."),
                    field!(C, max_drain_per_frame, "uint32_t", "Requests answered per frame; 0 takes the default (as above)."),
                    field!(C, user_agent, "const char *", "Server name reported to clients (copied); NULL takes `vmafx`."),
                ],
                rust_size: std::mem::size_of::<C>(),
                init: "VMAFX_MCP_CONFIG_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxMcpSseConfig",
                doc: "The SSE transport. Initialise with VMAFX_MCP_SSE_CONFIG_INIT (ABI 0.1.6).",
                fields: vec![
                    field!(S, struct_size, "uint32_t", size),
                    field!(S, port, "uint32_t", "Loopback TCP port, 0 to 65535; 0 takes an ephemeral port."),
                    field!(S, path, "const char *", "URL path of the event stream (copied); NULL takes `/sse`. Messages are POSTed to `<path>/message?session_id=N` as the stream's first event says."),
                ],
                rust_size: std::mem::size_of::<S>(),
                init: "VMAFX_MCP_SSE_CONFIG_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxMcpUdsConfig",
                doc: "The Unix domain socket transport. Initialise with VMAFX_MCP_UDS_CONFIG_INIT (ABI 0.1.6).",
                fields: vec![
                    field!(U, struct_size, "uint32_t", size),
                    field!(U, path, "const char *", "Socket path (copied), shorter than 100 bytes."),
                ],
                rust_size: std::mem::size_of::<U>(),
                init: "VMAFX_MCP_UDS_CONFIG_INIT",
                init_extra: "",
            },
            Item::Struct {
                name: "VmafxMcpStdioConfig",
                doc: "The file-descriptor transport. Initialise with VMAFX_MCP_STDIO_CONFIG_INIT (ABI 0.1.6).",
                fields: vec![
                    field!(D, struct_size, "uint32_t", size),
                    field!(D, fd_in, "int32_t", "Descriptor requests are read from."),
                    field!(D, fd_out, "int32_t", "Descriptor answers are written to."),
                ],
                rust_size: std::mem::size_of::<D>(),
                init: "VMAFX_MCP_STDIO_CONFIG_INIT",
                init_extra: "",
            },
            func!(mcp::vmafx_mcp_available),
            func!(mcp::vmafx_mcp_transport_available),
            func!(mcp::vmafx_mcp_server_create),
            func!(mcp::vmafx_mcp_start_sse),
            func!(mcp::vmafx_mcp_start_uds),
            func!(mcp::vmafx_mcp_start_stdio),
            func!(mcp::vmafx_mcp_stop),
            func!(mcp::vmafx_mcp_server_destroy),
        ],
    }
}
