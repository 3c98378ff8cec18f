// Prometheus's text exposition format (version 0.0.4) read strictly, for the metrics' tests and the bench:
// every line is a HELP or TYPE comment or a sample of a family whose TYPE came before it, each family's
// lines in one group, no sample twice, and a histogram's buckets ascending and cumulative up to +Inf, which
// equals its _count. Anything else throws, naming the line.

type Sample = { name: string; labels: Record<string, string>; value: number }
export type Family = { name: string; type: string; help: string | undefined; samples: Sample[] }

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*'
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*'
/** A value as Prometheus's own parser reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes `Nan`). */
const VALUE =
  '[-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[nN][aA][nN])'
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (${VALUE})(?: -?[0-9]+)?$`)
const PAIR = new RegExp(`^(${LABEL})="((?:[^"\\\\\\n]|\\\\["\\\\n])*)"(?:,|$)`)
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped'])

const unescaped = (text: string) => text.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c))

function labelsOf(text: string | undefined, line: string): Record<string, string> {
  const labels: Record<string, string> = {}
  let rest = text ?? ''
  while (rest.length > 0) {
    const pair = PAIR.exec(rest)
    if (!pair) throw new Error(`bad labels: ${line}`)
    const [whole, name = '', value = ''] = pair
    if (name in labels) throw new Error(`label ${name} twice: ${line}`)
    labels[name] = unescaped(value)
    rest = rest.slice(whole.length)
  }
  return labels
}

/** The family a sample name belongs to: itself, or a histogram's or summary's _bucket, _sum, _count. */
function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const own = families.get(name)
  if (own) return own
  const suffix = /_(bucket|sum|count)$/.exec(name)
  const base = suffix && families.get(name.slice(0, -suffix[0].length))
  if (!base) return undefined
  if (base.type === 'histogram' || (base.type === 'summary' && suffix[1] !== 'bucket')) return base
  return undefined
}

/** Each histogram's series: buckets by `le` ascending, each count at least the one before, +Inf = _count. */
function checkHistogram(family: Family) {
  const series = new Map<string, { le: number; value: number }[]>()
  const counts = new Map<string, number>()
  const keyOf = (labels: Record<string, string>) =>
    JSON.stringify(
      Object.entries(labels)
        .filter(([name]) => name !== 'le')
        .sort(),
    )
  for (const sample of family.samples) {
    const key = keyOf(sample.labels)
    if (sample.name.endsWith('_bucket')) {
      const le = sample.labels.le
      if (le === undefined) throw new Error(`${sample.name} without le`)
      series.set(key, [...(series.get(key) ?? []), { le: numberOf(le), value: sample.value }])
    } else if (sample.name.endsWith('_count')) counts.set(key, sample.value)
  }
  for (const [key, buckets] of series) {
    buckets.forEach((bucket, n) => {
      const previous = buckets[n - 1]
      if (previous && (bucket.le <= previous.le || bucket.value < previous.value))
        throw new Error(`${family.name}${key}: buckets not ascending and cumulative`)
    })
    const last = buckets.at(-1)
    if (last?.le !== Number.POSITIVE_INFINITY || last.value !== counts.get(key))
      throw new Error(`${family.name}${key}: the +Inf bucket is not the _count`)
  }
}

function numberOf(value: string): number {
  const word = value.replace(/^[-+]/, '').toLowerCase()
  if (word === 'nan') return Number.NaN
  if (word === 'inf' || word === 'infinity') return value.startsWith('-') ? -Infinity : Infinity
  return Number(value)
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith('\n')) throw new Error('the text does not end with a line feed')
  const families = new Map<string, Family>()
  const helps = new Map<string, string>()
  const seen = new Set<string>()
  const done = new Set<string>()
  let current: Family | undefined
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line)
    if (comment) {
      const [, kind, name = '', rest = ''] = comment
      if (!new RegExp(`^${NAME}$`).test(name)) throw new Error(`bad name: ${line}`)
      if (kind === 'HELP') {
        if (helps.has(name)) throw new Error(`HELP twice: ${line}`)
        helps.set(
          name,
          rest.replace(/\\([\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c)),
        )
      } else {
        if (families.has(name)) throw new Error(`TYPE twice: ${line}`)
        if (!TYPES.has(rest)) throw new Error(`unknown type: ${line}`)
        if (current) done.add(current.name)
        current = { name, type: rest, help: undefined, samples: [] }
        families.set(name, current)
      }
      continue
    }
    if (line.startsWith('#')) continue
    const sample = SAMPLE.exec(line)
    if (!sample) throw new Error(`not a sample: ${line}`)
    const [, name = '', labelText, value = ''] = sample
    const family = familyOf(families, name)
    if (!family) throw new Error(`a sample before its TYPE: ${line}`)
    if (family !== current || done.has(family.name))
      throw new Error(`family ${family.name} not in one group: ${line}`)
    const labels = labelsOf(labelText, line)
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`
    if (seen.has(key)) throw new Error(`sample twice: ${line}`)
    seen.add(key)
    family.samples.push({ name, labels, value: numberOf(value) })
  }
  for (const family of families.values()) {
    family.help = helps.get(family.name)
    if (family.type === 'histogram') checkHistogram(family)
  }
  return families
}

/** The value of the sample `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const family = familyOf(families, name)
  return family?.samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value
}
