# syntax=docker/dockerfile:1
# The API (and, with another command, the migrations one-off). Built from the repository's root:
#   docker build -f docker/api.Dockerfile -t offers-api .
# The build stage is the same in every image of docker/, so one build serves them all.

FROM node:24-bookworm AS build
WORKDIR /app
COPY . .
RUN sh docker/production-layout.sh build

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/docker/production-layout.sh docker/
COPY --from=build /app/api/package.json api/
COPY --from=build /app/workers/package.json workers/
COPY --from=build /app/web-public/package.json web-public/
COPY --from=build /app/web-backoffice/package.json web-backoffice/
COPY --from=build /app/test/package.json test/
# npm's cache stays in the builder's cache, out of the image.
RUN --mount=type=cache,target=/root/.npm sh docker/production-layout.sh install
COPY --from=build /app/api/dist api/dist
# Files stay root's: the process reads them and writes nothing to its own tree.
USER node
EXPOSE 3000 9464
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.API_OPERATIONS_PORT || 9464}/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The migrations one-off runs this image with:
#   node api/dist/src/infrastructure/database/cli/migrate.js
CMD ["node", "--no-memory-reducer", "api/dist/src/main.js"]
