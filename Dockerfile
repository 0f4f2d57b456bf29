# Debian 12, as the README's setup: the build stage runs scripts/setup.sh,
# the runtime stage installs the same Debian packages (setup.sh --runtime).
FROM debian:bookworm AS build
WORKDIR /src
COPY scripts/setup.sh scripts/setup.sh
COPY go.mod go.sum ./
RUN bash scripts/setup.sh
COPY . .
RUN make build

FROM debian:bookworm
COPY scripts/setup.sh /opt/mjscan/setup.sh
RUN bash /opt/mjscan/setup.sh --runtime && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/bin/mjscan /usr/local/bin/mjscan
EXPOSE 8080
USER nobody
ENTRYPOINT ["mjscan", "serve", "--addr", "0.0.0.0:8080"]
