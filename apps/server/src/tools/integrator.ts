// `npm run integrator -- <command>`: a small client of the open API for integrators (120
// dispatch centres, WeChat mini-programs): signed calls, their answers, image uploads and the public's
// submissions (`upload`, `volunteer`, `third-party-aed --image …`), and a webhook receiver
// (`--receive PORT`). `npm run integrator -- --help` lists the commands; docs/open-api.md tells
// the whole contract. The tool lives in tools/integrator/ so the tests can run it.
import { runCli } from './integrator/cli.ts'

runCli(process.argv.slice(2), process.env, {
  out: (s) => console.log(s),
  err: (s) => console.error(s),
}).then(
  (code) => {
    if (code !== 'running') process.exitCode = code
  },
  (e) => {
    console.error(e)
    process.exitCode = 1
  },
)
