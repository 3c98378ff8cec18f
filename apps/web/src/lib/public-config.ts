import {
  formatIssues,
  PUBLIC_CONFIG_ELEMENT_ID,
  type PublicConfig,
  publicConfigSchema,
} from '@guildhall/core'

class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Reads and validates the config the server wrote into index.html. */
export function readPublicConfig(doc: Document = document): PublicConfig {
  const element = doc.getElementById(PUBLIC_CONFIG_ELEMENT_ID)
  if (!element?.textContent) {
    throw new ConfigError(
      'This page was served without its configuration. Start it with `npm start` or through the Guildhall server.',
    )
  }
  let raw: unknown
  try {
    raw = JSON.parse(element.textContent)
  } catch {
    throw new ConfigError('The configuration in this page is not valid JSON.')
  }
  const parsed = publicConfigSchema.safeParse(raw)
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${formatIssues(parsed.error)}`)
  return parsed.data
}
