/**
 * The one zod every core schema is built with: zod/mini, the tree-shakable API, so the browser's first
 * page carries no schema methods or JSON-schema code it never calls. Unlike classic zod, mini loads no
 * locale, so English is set here: the same messages the API and the web app have always shown.
 */
import { z } from 'zod/mini'

z.config(z.locales.en())

export { z }
