// Command-line options of `npm start` beyond the sandbox's own (cliOptions.ts).

/** `--locale <tag>` belongs to npm start alone (the editor's display language); the rest are the sandbox's options. */
export function splitStartArgs(argv: readonly string[]): { locale?: string; sandboxArgs: string[] } {
  const sandboxArgs: string[] = [];
  let locale: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--locale') {
      locale = argv[++index];
      if (!locale || locale.startsWith('-')) throw new Error('--locale needs a language tag, for example --locale it');
    } else if (arg.startsWith('--locale=')) locale = arg.slice('--locale='.length);
    else sandboxArgs.push(arg);
  }
  return { locale, sandboxArgs };
}
