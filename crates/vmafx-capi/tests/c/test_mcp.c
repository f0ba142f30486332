/* The embedded MCP server through mcp.h: a client's session over a Unix socket and over a
 * pair of descriptors (handshake, tools, compute_vmaf on a y4m pair this test writes, its
 * scores and provenance), SSE's bound port, one transport of a kind at a time, and stop. */
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"

/* Writes a 64x64 4:2:0 y4m of `frames` frames, every sample `base + frame`. */
static void write_y4m(const char *path, int frames, int base)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    fprintf(f, "YUV4MPEG2 W64 H64 F25:1 Ip A1:1 C420jpeg\n");
    unsigned char plane[64 * 64 + 2 * 32 * 32];
    for (int i = 0; i < frames; i++) {
        memset(plane, base + i * 7, sizeof(plane));
        for (int k = 0; k < 64 * 64; k += 3)
            plane[k] = (unsigned char)(base + k % 50);
        fprintf(f, "FRAME\n");
        fwrite(plane, 1, sizeof(plane), f);
    }
    fclose(f);
}

/* Sends one line and reads the answer line into `buf`. */
static void ask(int wfd, int rfd, const char *msg, char *buf, size_t cap)
{
    CHECK(write(wfd, msg, strlen(msg)) == (ssize_t)strlen(msg));
    CHECK(write(wfd, "\n", 1) == 1);
    size_t n = 0;
    while (n + 1 < cap) {
        ssize_t got = read(rfd, buf + n, 1);
        if (got <= 0 || buf[n] == '\n')
            break;
        n++;
    }
    buf[n] = 0;
}

static char answer[1 << 16];

static void session(int wfd, int rfd, const char *ref, const char *dis)
{
    ask(wfd, rfd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}", answer,
        sizeof(answer));
    CHECK(strstr(answer, "\"name\":\"c-agent\"") != NULL);
    ask(wfd, rfd, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", answer, sizeof(answer));
    CHECK(strstr(answer, "\"compute_vmaf\"") && strstr(answer, "\"get_provenance\""));
    char msg[1024];
    snprintf(msg, sizeof(msg),
             "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
             "\"compute_vmaf\",\"arguments\":{\"reference_path\":\"%s\",\"distorted_path\":\"%s\"}}}",
             ref, dis);
    ask(wfd, rfd, msg, answer, sizeof(answer));
    CHECK(strstr(answer, "\"id\":3") && strstr(answer, "\"isError\":false"));
    if (!strstr(answer, "\"isError\":false"))
        fprintf(stderr, "compute_vmaf answered: %s\n", answer);
    CHECK(strstr(answer, "\"frames_scored\":3") != NULL);
    CHECK(strstr(answer, "\"score\":") != NULL);
    ask(wfd, rfd,
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"get_provenance\"}}",
        answer, sizeof(answer));
    /* The engine's provenance record: the model's version and digest, the record's digest. */
    CHECK(strstr(answer, "vmaf_v0.6.1") && strstr(answer, "scores_digest") &&
          strstr(answer, "sha256:"));
    ask(wfd, rfd,
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":"
        "\"compute_vmaf\",\"arguments\":{\"reference_path\":\"/nonexistent/r.y4m\","
        "\"distorted_path\":\"/nonexistent/d.y4m\"}}}",
        answer, sizeof(answer));
    CHECK(strstr(answer, "\"isError\":true") && strstr(answer, "/nonexistent/r.y4m"));
}

int main(void)
{
    CHECK(vmafx_mcp_available() == 1);
    CHECK(vmafx_mcp_transport_available(VMAFX_MCP_TRANSPORT_SSE) == 1);
    CHECK(vmafx_mcp_transport_available(VMAFX_MCP_TRANSPORT_UDS) == 1);
    CHECK(vmafx_mcp_transport_available(VMAFX_MCP_TRANSPORT_STDIO) == 1);
    CHECK(vmafx_mcp_transport_available(3) == 0);

    char dir[] = "/tmp/vmafx-mcp-c-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char ref[128], dis[128], sock[128];
    snprintf(ref, sizeof(ref), "%s/ref.y4m", dir);
    snprintf(dis, sizeof(dis), "%s/dis.y4m", dir);
    snprintf(sock, sizeof(sock), "%s/mcp.sock", dir);
    write_y4m(ref, 3, 40);
    write_y4m(dis, 3, 44);

    VmafxContext *ctx = NULL;
    CHECK(vmafx_context_create(NULL, &ctx, NULL) == VMAFX_OK);
    VmafxMcpConfig cfg = VMAFX_MCP_CONFIG_INIT;
    cfg.user_agent = "c-agent";
    VmafxMcpServer *srv = NULL;
    VmafxError *err = NULL;
    CHECK(vmafx_mcp_server_create(ctx, &cfg, &srv, &err) == VMAFX_OK && srv);

    /* Unix socket. */
    VmafxMcpUdsConfig uds = VMAFX_MCP_UDS_CONFIG_INIT;
    uds.path = sock;
    CHECK(vmafx_mcp_start_uds(srv, &uds, &err) == VMAFX_OK);
    FAILS(vmafx_mcp_start_uds(srv, &uds, &err), VMAFX_E_BUSY, &err, "server",
          VMAFX_SUBJECT_PARAMETER);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    strncpy(addr.sun_path, sock, sizeof(addr.sun_path) - 1);
    CHECK(connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0);
    session(fd, fd, ref, dis);
    close(fd);

    /* Descriptors. */
    int to_server[2], from_server[2];
    CHECK(pipe(to_server) == 0 && pipe(from_server) == 0);
    VmafxMcpStdioConfig io = VMAFX_MCP_STDIO_CONFIG_INIT;
    io.fd_in = to_server[0];
    io.fd_out = from_server[1];
    CHECK(vmafx_mcp_start_stdio(srv, &io, &err) == VMAFX_OK);
    session(to_server[1], from_server[0], ref, dis);

    /* SSE: an ephemeral loopback port. */
    VmafxMcpSseConfig sse = VMAFX_MCP_SSE_CONFIG_INIT;
    uint32_t port = 0;
    CHECK(vmafx_mcp_start_sse(srv, &sse, &port, &err) == VMAFX_OK);
    CHECK(port > 0 && port <= 65535);
    sse.port = 70000;
    FAILS(vmafx_mcp_start_sse(srv, &sse, &port, &err), VMAFX_E_RANGE, &err, "config.port",
          VMAFX_SUBJECT_PARAMETER);

    CHECK(vmafx_mcp_stop(srv, &err) == VMAFX_OK);
    CHECK(access(sock, F_OK) != 0); /* the socket file went with the transport */
    CHECK(vmafx_mcp_start_uds(srv, &uds, &err) == VMAFX_OK); /* and may start again */
    vmafx_mcp_server_destroy(srv);
    vmafx_mcp_server_destroy(NULL);
    for (int i = 0; i < 2; i++) {
        close(to_server[i]);
        close(from_server[i]);
    }
    vmafx_context_destroy(ctx, NULL);
    remove(ref);
    remove(dis);
    remove(sock);
    rmdir(dir);
    printf("test_mcp: %d checks, %d failed\n", check_count, check_failures);
    return check_failures != 0;
}
