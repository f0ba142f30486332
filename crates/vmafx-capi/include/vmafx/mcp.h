/*
 * vmafx: VMAFx's C ABI, implemented in Rust.
 *
 * GENERATED from the Rust definitions of crates/vmafx-capi by src/headers.rs;
 * do not edit. Regenerate with `VMAFX_BLESS=1 cargo test -p vmafx-capi headers`.
 */

/**
 * The embedded MCP server (Model Context Protocol, JSON-RPC 2.0): an assistant scores pairs and
 * reads their scores and provenance through it.
 */

#ifndef VMAFX_MCP_H
#define VMAFX_MCP_H

#include <stddef.h>
#include <stdint.h>
#include <vmafx/types.h>
#include <vmafx/error.h>
#include <vmafx/context.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Transport of the embedded MCP server (ABI 0.1.6). */
typedef enum VmafxMcpTransport {
    /** Server-sent events over loopback HTTP. */
    VMAFX_MCP_TRANSPORT_SSE = 0,
    /** A Unix domain socket. */
    VMAFX_MCP_TRANSPORT_UDS = 1,
    /** A pair of file descriptors. */
    VMAFX_MCP_TRANSPORT_STDIO = 2,
} VmafxMcpTransport;

/** The embedded MCP server of a context (ABI 0.1.6). */
typedef struct VmafxMcpServer VmafxMcpServer;

typedef struct VmafxMcpConfig VmafxMcpConfig;
typedef struct VmafxMcpSseConfig VmafxMcpSseConfig;
typedef struct VmafxMcpUdsConfig VmafxMcpUdsConfig;
typedef struct VmafxMcpStdioConfig VmafxMcpStdioConfig;

/** How to create an MCP server. Initialise with VMAFX_MCP_CONFIG_INIT (ABI 0.1.6). */
struct VmafxMcpConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Requests queued per frame; 0 takes the default (this server answers each as it comes). */
    uint32_t queue_depth;
    /** Requests answered per frame; 0 takes the default (as above). */
    uint32_t max_drain_per_frame;
    /** Server name reported to clients (copied); NULL takes `vmafx`. */
    const char *user_agent;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MCP_CONFIG_INIT {.struct_size = sizeof(VmafxMcpConfig)}

/** The SSE transport. Initialise with VMAFX_MCP_SSE_CONFIG_INIT (ABI 0.1.6). */
struct VmafxMcpSseConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Loopback TCP port, 0 to 65535; 0 takes an ephemeral port. */
    uint32_t port;
    /**
     * URL path of the event stream (copied); NULL takes `/sse`. Messages are POSTed to
     * `<path>/message?session_id=N` as the stream's first event says.
     */
    const char *path;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MCP_SSE_CONFIG_INIT {.struct_size = sizeof(VmafxMcpSseConfig)}

/** The Unix domain socket transport. Initialise with VMAFX_MCP_UDS_CONFIG_INIT (ABI 0.1.6). */
struct VmafxMcpUdsConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Socket path (copied), shorter than 100 bytes. */
    const char *path;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MCP_UDS_CONFIG_INIT {.struct_size = sizeof(VmafxMcpUdsConfig)}

/** The file-descriptor transport. Initialise with VMAFX_MCP_STDIO_CONFIG_INIT (ABI 0.1.6). */
struct VmafxMcpStdioConfig {
    /** Size of this struct as the caller compiled it; set by the _INIT macro. */
    uint32_t struct_size;
    /** Descriptor requests are read from. */
    int32_t fd_in;
    /** Descriptor answers are written to. */
    int32_t fd_out;
};

/** Initialiser: sets `struct_size`, zeroes every other field. */
#define VMAFX_MCP_STDIO_CONFIG_INIT {.struct_size = sizeof(VmafxMcpStdioConfig)}

/** 1 when this build has the embedded MCP server, else 0. */
VMAFX_EXPORT uint32_t vmafx_mcp_available(void);

/**
 * 1 when this build has MCP transport `transport` (VmafxMcpTransport), else 0. SSE, UDS and STDIO
 * all are.
 */
VMAFX_EXPORT uint32_t vmafx_mcp_transport_available(uint32_t transport);

/**
 * An MCP server answering for `context`, which must outlive it; no transport runs yet. `config` may
 * be NULL. The tools (compute_vmaf, get_scores, get_provenance, list_models, list_features) score
 * files named by their arguments.
 */
VMAFX_EXPORT VmafxStatus vmafx_mcp_server_create(VmafxContext *context,
                                                 const VmafxMcpConfig *config, VmafxMcpServer **out,
                                                 VmafxError **error);

/**
 * Starts the SSE transport on 127.0.0.1 (never another address); `port` (may be NULL) receives the
 * bound port, the ephemeral one for port 0. `config` may be NULL (port 0, path /sse). VMAFX_E_BUSY
 * when SSE already runs.
 */
VMAFX_EXPORT VmafxStatus vmafx_mcp_start_sse(VmafxMcpServer *server,
                                             const VmafxMcpSseConfig *config, uint32_t *port,
                                             VmafxError **error);

/**
 * Starts the Unix domain socket transport at `config->path` (shorter than 100 bytes; a stale socket
 * there is replaced, removed again on stop). VMAFX_E_BUSY when it already runs.
 */
VMAFX_EXPORT VmafxStatus vmafx_mcp_start_uds(VmafxMcpServer *server,
                                             const VmafxMcpUdsConfig *config, VmafxError **error);

/**
 * Starts the file-descriptor transport: one JSON-RPC message per line read from `fd_in`, answers
 * written to `fd_out`; the descriptors stay the caller's, open until vmafx_mcp_stop. `config` NULL
 * takes 0 and 1. VMAFX_E_BUSY when it already runs.
 */
VMAFX_EXPORT VmafxStatus vmafx_mcp_start_stdio(VmafxMcpServer *server,
                                               const VmafxMcpStdioConfig *config,
                                               VmafxError **error);

/**
 * Stops every running transport and joins its threads (a tool call in progress finishes first); the
 * server may be started again.
 */
VMAFX_EXPORT VmafxStatus vmafx_mcp_stop(VmafxMcpServer *server, VmafxError **error);

/** Stops and releases a server; NULL is a no-op. */
VMAFX_EXPORT void vmafx_mcp_server_destroy(VmafxMcpServer *server);

#ifdef __cplusplus
}
#endif

#endif /* VMAFX_MCP_H */
