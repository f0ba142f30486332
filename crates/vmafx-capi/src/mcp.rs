//! The embedded MCP server of the C ABI (VMAFx's mcp.h): a `vmafx_mcp::Server` and the
//! transports started on it (at most one of each kind), stopped on `vmafx_mcp_stop` or
//! destroy.

use std::ffi::c_char;
use std::path::Path;
use std::sync::{Arc, Mutex};

use vmafx::Status;

use crate::abi::MinSize;
use crate::c_export;
use crate::context_handle::VmafxContext;
use crate::error::{fail, null, CResult};
use crate::ffi::c_str;
use crate::sized;

/// `VmafxMcpTransport`: SSE on loopback HTTP.
pub const TRANSPORT_SSE: u32 = 0;
/// `VmafxMcpTransport`: a Unix domain socket.
pub const TRANSPORT_UDS: u32 = 1;
/// `VmafxMcpTransport`: a pair of file descriptors.
pub const TRANSPORT_STDIO: u32 = 2;

/// `VmafxMcpConfig`: how to create a server.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxMcpConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Requests queued per frame (0: the default; this server answers as they come).
    pub queue_depth: u32,
    /// Requests answered per frame (0: the default; as above).
    pub max_drain_per_frame: u32,
    /// Server name reported to clients (copied); NULL `vmafx`.
    pub user_agent: *const c_char,
}

/// `VmafxMcpSseConfig`: the SSE transport.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxMcpSseConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Loopback TCP port; 0 an ephemeral one.
    pub port: u32,
    /// URL path of the event stream (copied); NULL `/sse`.
    pub path: *const c_char,
}

/// `VmafxMcpUdsConfig`: the Unix domain socket transport.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxMcpUdsConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Socket path (copied), shorter than 100 bytes.
    pub path: *const c_char,
}

/// `VmafxMcpStdioConfig`: the file-descriptor transport.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct VmafxMcpStdioConfig {
    /// Size of the struct as the caller compiled it.
    pub struct_size: u32,
    /// Descriptor requests are read from.
    pub fd_in: i32,
    /// Descriptor answers are written to.
    pub fd_out: i32,
}

// The four configs are `#[repr(C)]` structs led by `struct_size`, of integers and pointers
// only (valid all-zero); MIN_SIZE is the whole struct (ABI 0.1.6 introduced each whole).
// SAFETY: as said above.
unsafe impl MinSize for VmafxMcpConfig {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxMcpConfig>();
}
// SAFETY: as above.
unsafe impl MinSize for VmafxMcpSseConfig {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxMcpSseConfig>();
}
// SAFETY: as above.
unsafe impl MinSize for VmafxMcpUdsConfig {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxMcpUdsConfig>();
}
// SAFETY: as above.
unsafe impl MinSize for VmafxMcpStdioConfig {
    const MIN_SIZE: usize = std::mem::size_of::<VmafxMcpStdioConfig>();
}

/// A server handle: the server and its running transports (SSE, UDS, stdio).
#[derive(Debug)]
pub struct VmafxMcpServer {
    server: Arc<vmafx_mcp::Server>,
    running: Mutex<[Option<vmafx_mcp::Running>; 3]>,
}

crate::c_named!(
    VmafxMcpServer,
    VmafxMcpConfig,
    VmafxMcpSseConfig,
    VmafxMcpUdsConfig,
    VmafxMcpStdioConfig
);

/// The server behind `ptr`.
///
/// # Safety
/// `ptr` is NULL or a live server handle.
unsafe fn get<'a>(ptr: *const VmafxMcpServer) -> CResult<&'a VmafxMcpServer> {
    // SAFETY: NULL or live (the caller's contract).
    unsafe { ptr.as_ref() }.ok_or_else(|| null("server"))
}

/// Starts transport `slot` with `start` unless one of that kind runs already.
fn start(
    server: &VmafxMcpServer,
    slot: u32,
    name: &str,
    start: impl FnOnce(Arc<vmafx_mcp::Server>) -> std::io::Result<vmafx_mcp::Running>,
) -> CResult {
    let mut running = server.running.lock().unwrap_or_else(|p| p.into_inner());
    let at = &mut running[slot as usize];
    if at.is_some() {
        return Err(fail(
            Status::Busy,
            "server",
            format!("the {name} transport already runs (vmafx_mcp_stop stops it)"),
        ));
    }
    let r = start(server.server.clone()).map_err(|e| {
        let status = match e.kind() {
            std::io::ErrorKind::InvalidInput => Status::Invalid,
            _ => Status::Io,
        };
        fail(
            status,
            "config",
            format!("starting the {name} transport: {e}"),
        )
    })?;
    *at = Some(r);
    Ok(Status::Ok)
}

c_export! {
    /// 1: this build has the MCP server.
    ///
    /// # Safety
    /// None (no arguments); `unsafe` only for the export's uniform shape.
    #[c = "1 when this build has the embedded MCP server, else 0."]
    pub unsafe fn vmafx_mcp_available() -> u32 {
        1
    }
}

c_export! {
    /// 1 for SSE, UDS and STDIO; 0 for any other value.
    ///
    /// # Safety
    /// None; `unsafe` only for the export's uniform shape.
    #[c = "1 when this build has MCP transport `transport` (VmafxMcpTransport), else 0. SSE, UDS and STDIO all are."]
    pub unsafe fn vmafx_mcp_transport_available(transport: u32) -> u32 {
        u32::from(transport <= TRANSPORT_STDIO)
    }
}

c_export! {
    /// Creates a server into `*out`. The server scores files by their paths (the tools'
    /// arguments); `context` is checked when given but not used by the tools.
    ///
    /// # Safety
    /// `context` NULL or live; `config` NULL or valid for its `struct_size`; `out`, `error`
    /// NULL or writable.
    #[c = "An MCP server answering for `context`, which must outlive it; no transport runs yet. `config` may be NULL. The tools (compute_vmaf, get_scores, get_provenance, list_models, list_features) score files named by their arguments."]
    pub unsafe fn vmafx_mcp_server_create(
        context: *mut VmafxContext,
        config: *const VmafxMcpConfig,
        out: *mut *mut VmafxMcpServer;
        error
    ) -> VmafxStatus {
        if out.is_null() {
            return Err(null("out"));
        }
        // SAFETY: non-NULL and writable (this function's contract).
        unsafe { out.write(std::ptr::null_mut()) };
        if !context.is_null() {
            // SAFETY: live (this function's contract).
            unsafe { crate::context_handle::get(context) }?;
        }
        let mut name = None;
        if !config.is_null() {
            // SAFETY: valid for its struct_size (this function's contract).
            let (c, _) = unsafe { sized::read(config, "config") }?;
            if !c.user_agent.is_null() {
                // SAFETY: a non-NULL user_agent is NUL-terminated (the header's contract).
                name = Some(unsafe { c_str(c.user_agent, "config.user_agent") }?.to_string());
            }
        }
        let handle = VmafxMcpServer {
            server: Arc::new(vmafx_mcp::Server::new(name.as_deref())),
            running: Mutex::new([None, None, None]),
        };
        // SAFETY: as above.
        unsafe { out.write(Box::into_raw(Box::new(handle))) };
        Ok(Status::Ok)
    }
}

c_export! {
    /// Starts SSE on 127.0.0.1; `*port` receives the bound port.
    ///
    /// # Safety
    /// `server` NULL or live; `config` NULL or valid for its `struct_size`; `port`, `error`
    /// NULL or writable.
    #[c = "Starts the SSE transport on 127.0.0.1 (never another address); `port` (may be NULL) receives the bound port, the ephemeral one for port 0. `config` may be NULL (port 0, path /sse). VMAFX_E_BUSY when SSE already runs."]
    pub unsafe fn vmafx_mcp_start_sse(
        server: *mut VmafxMcpServer,
        config: *const VmafxMcpSseConfig,
        port: *mut u32;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let s = unsafe { get(server) }?;
        let (mut want, mut path) = (0u32, None);
        if !config.is_null() {
            // SAFETY: valid for its struct_size (this function's contract).
            let (c, _) = unsafe { sized::read(config, "config") }?;
            want = c.port;
            if !c.path.is_null() {
                // SAFETY: NUL-terminated when non-NULL (the header's contract).
                path = Some(unsafe { c_str(c.path, "config.path") }?.to_string());
            }
        }
        let want = u16::try_from(want).map_err(|_| {
            fail(Status::Range, "config.port", format!("port {want} is not a TCP port"))
        })?;
        let mut bound = 0u16;
        start(s, TRANSPORT_SSE, "SSE", |srv| {
            let (r, p) = vmafx_mcp::start_sse(srv, want, path.as_deref())?;
            bound = p;
            Ok(r)
        })?;
        if !port.is_null() {
            // SAFETY: non-NULL and writable (this function's contract).
            unsafe { port.write(u32::from(bound)) };
        }
        Ok(Status::Ok)
    }
}

c_export! {
    /// Starts the Unix socket transport at `config->path`.
    ///
    /// # Safety
    /// `server` NULL or live; `config` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Starts the Unix domain socket transport at `config->path` (shorter than 100 bytes; a stale socket there is replaced, removed again on stop). VMAFX_E_BUSY when it already runs."]
    pub unsafe fn vmafx_mcp_start_uds(
        server: *mut VmafxMcpServer,
        config: *const VmafxMcpUdsConfig;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let s = unsafe { get(server) }?;
        // SAFETY: NULL or valid for its struct_size (this function's contract).
        let (c, _) = unsafe { sized::read(config, "config") }?;
        // SAFETY: NULL or NUL-terminated (the header's contract).
        let path = unsafe { c_str(c.path, "config.path") }?.to_string();
        start(s, TRANSPORT_UDS, "UDS", |srv| {
            vmafx_mcp::start_uds(srv, Path::new(&path))
        })
    }
}

c_export! {
    /// Starts the descriptor transport (`config` NULL: descriptors 0 and 1).
    ///
    /// # Safety
    /// `server` NULL or live; `config` NULL or valid for its `struct_size`; `error` NULL or
    /// writable.
    #[c = "Starts the file-descriptor transport: one JSON-RPC message per line read from `fd_in`, answers written to `fd_out`; the descriptors stay the caller's, open until vmafx_mcp_stop. `config` NULL takes 0 and 1. VMAFX_E_BUSY when it already runs."]
    pub unsafe fn vmafx_mcp_start_stdio(
        server: *mut VmafxMcpServer,
        config: *const VmafxMcpStdioConfig;
        error
    ) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let s = unsafe { get(server) }?;
        let (mut fd_in, mut fd_out) = (0, 1);
        if !config.is_null() {
            // SAFETY: valid for its struct_size (this function's contract).
            let (c, _) = unsafe { sized::read(config, "config") }?;
            (fd_in, fd_out) = (c.fd_in, c.fd_out);
        }
        start(s, TRANSPORT_STDIO, "stdio", |srv| {
            vmafx_mcp::start_stdio(srv, fd_in, fd_out)
        })
    }
}

c_export! {
    /// Stops every running transport and joins its threads.
    ///
    /// # Safety
    /// `server` NULL or live; `error` NULL or writable.
    #[c = "Stops every running transport and joins its threads (a tool call in progress finishes first); the server may be started again."]
    pub unsafe fn vmafx_mcp_stop(server: *mut VmafxMcpServer; error) -> VmafxStatus {
        // SAFETY: NULL or live (this function's contract).
        let s = unsafe { get(server) }?;
        let taken: Vec<_> = {
            let mut running = s.running.lock().unwrap_or_else(|p| p.into_inner());
            running.iter_mut().filter_map(Option::take).collect()
        };
        for mut r in taken {
            r.stop();
        }
        Ok(Status::Ok)
    }
}

c_export! {
    /// Stops and releases a server; NULL is a no-op.
    ///
    /// # Safety
    /// `server` NULL or a live handle the caller gives up.
    #[c = "Stops and releases a server; NULL is a no-op."]
    pub unsafe fn vmafx_mcp_server_destroy(server: *mut VmafxMcpServer) {
        if !server.is_null() {
            // SAFETY: made by Box::into_raw in vmafx_mcp_server_create; given up by the
            // caller. Dropping it stops its transports.
            drop(unsafe { Box::from_raw(server) });
        }
    }
}
