/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Set ('1') when the console is built for the end-to-end journeys and the benchmark: the dashboard map is then reachable on window. */
  readonly VITE_TEST_HOOKS?: string
}
