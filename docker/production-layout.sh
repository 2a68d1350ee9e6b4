#!/bin/sh
# The steps that make the production layout, run by the images' Dockerfiles (docker/*.Dockerfile)
# and by test/deployment/production-layout.test.ts, so what the test proves is what the images do.
#
#   build     in a copy of the repository: every dependency, then the API, the workers, the site's
#             server and both web apps' production builds
#   install   in the final layout (package files, this script and the built output only): the
#             production dependencies of the API, the workers and the site's server
set -eu

case "${1:-}" in
  build)
    # `npm install` with the committed lockfile, not `npm ci`: the lockfile lacks other platforms'
    # builds of native packages (the registry has none for them) and `npm ci` refuses it.
    npm install --no-audit --no-fund
    npm run build
    npm run build:web
    ;;
  install)
    # The three processes' workspaces and what they depend on, without dev dependencies: one set
    # for every image, so each image holds exactly what the test started. The back-office's and
    # the tests' workspaces are left out (the site serves the back-office's static build).
    npm install --omit=dev --no-audit --no-fund \
      --workspace=api --workspace=workers --workspace=web-public --include-workspace-root
    # TypeScript stays after --omit=dev: @nestjs/swagger (its compiler plugin) and valibot (its
    # types) name it as an optional peer, so the lockfile marks it dev-or-optional, which npm only
    # drops when both are omitted, and omitting optional packages would drop sharp's binaries.
    # Nothing run in production loads it.
    rm -rf node_modules/typescript node_modules/.bin/tsc node_modules/.bin/tsserver
    ;;
  *)
    echo "usage: production-layout.sh build|install" >&2
    exit 64
    ;;
esac
