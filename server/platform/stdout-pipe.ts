/**
 * `site chats export | head`: the reader closing the pipe early is not a failure of the export.
 * Stop quietly, as other command-line tools do, instead of dying on an unhandled EPIPE with a stack
 * trace. Any other output error still surfaces.
 */
export function exitQuietlyWhenStdoutCloses(
  stream: NodeJS.WriteStream = process.stdout,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    exit(0);
  });
}
