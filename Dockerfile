# The server as a container image. No Docker engine runs on the machines this project is built
# on: apps/server/test/clean-copy.test.ts runs the same steps (a clean copy of the repository,
# install, build, runtime directory, start, /healthz) without Docker.
#
#   docker build -t project-directory .
#   docker run -p 3000:3000 -e WEBHOOK_API_KEY=change-me -v directory-data:/data project-directory

# 1. build: install with the lockfile (the install builds apps/server/dist), then gather the runtime
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN npx --yes pnpm@10.34.8 install --frozen-lockfile \
  && npx --yes pnpm@10.34.8 build \
  && node scripts/runtime-bundle.mjs /runtime

# 2. run: the built JavaScript and the two packages it loads at run time, as the unprivileged `node` user
FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATABASE_URL=pglite:/data
WORKDIR /app
COPY --from=build --chown=root:root /runtime /app
RUN mkdir /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) finishes the requests in flight and exits 0
CMD ["node", "dist/main.js"]
