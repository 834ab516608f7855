// The directions the code's layers depend in (README, Layout), checked by `npm run lint`.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "client-and-shared-stay-out-of-the-server",
      comment: "client/ runs in the browser and shared/ on both sides: neither may pull in server or database code.",
      severity: "error",
      from: { path: "^(client|shared)/" },
      to: { path: "^(server|db)/" },
    },
    {
      name: "platform-knows-no-feature",
      comment:
        "server/platform/ is what every feature stands on (HTTP, configuration, processes, backups): what it needs of a feature is passed in by server/wiring.ts.",
      severity: "error",
      from: {
        path: "^server/platform/",
      },
      to: { path: "^server/(site|shop|owner|roles)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    exclude: { path: "^test/fixtures/" },
  },
};
