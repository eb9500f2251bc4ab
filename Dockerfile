# capplan as a container image: a static binary on a distroless base, run
# as a non-root user, with the database and the raw result files in the
# /data volume. Build: docker build -t capplan .
# Run:   docker run -d --name capplan -p 127.0.0.1:8080:8080 -v capplan-data:/data \
#          --read-only --tmpfs /tmp -e CAPPLAN_ADMIN_PASSWORD=... capplan
# (see "Deploy" in README.md).

# Build stage: the Go toolchain; the first build compiles the pure-Go SQLite
# (a few minutes), later ones reuse the module download layer.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# CGO_ENABLED=0: a static binary that needs no C library at run time.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/capplan ./cmd/capplan \
 && mkdir -p /out/data

# Run stage: no shell, no package manager; the nonroot user (65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/capplan /usr/local/bin/capplan
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
# Everything the app writes goes under /data: capplan.db (with its -wal and
# -shm) and files/ (the raw result files, by sha256). The root file system
# may be read-only.
VOLUME ["/data"]
# The working directory is not writable: nothing may land outside /data.
WORKDIR /
ENV CAPPLAN_DB=/data/capplan.db \
    CAPPLAN_ADDR=0.0.0.0:8080
EXPOSE 8080
# Ready means the database takes writes, its migrations are current and
# files/ takes new files (GET /readyz); the binary probes it itself, as the
# image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/capplan", "probe"]
ENTRYPOINT ["/usr/local/bin/capplan"]
# A team's server starts empty; drop --no-demo to get the demo report.
CMD ["serve", "--no-demo"]
