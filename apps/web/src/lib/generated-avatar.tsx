// A generated avatar for an address without one of its own: a 5×5 mirrored pattern in two colours, both from
// the address's own digits, so the same address always looks the same and different ones rarely alike.

/** The pattern's cells, left half and middle column (mirrored), and its hue, from the address's hex digits. */
function pattern(address: string) {
  const digits = address.toLowerCase().replace(/^0x/, '').padEnd(40, '0')
  const nibble = (i: number) => Number.parseInt(digits[i % digits.length] as string, 16)
  const cells: [number, number][] = []
  for (let row = 0; row < 5; row++)
    for (let col = 0; col < 3; col++) if (nibble(row * 3 + col + 8) % 2 === 0) cells.push([row, col])
  const hue = ((nibble(0) << 4) | nibble(1)) * 1.41
  return { cells, hue: Math.round(hue) }
}

export function GeneratedAvatar({ address, size = 32 }: { address: string; size?: number }) {
  const { cells, hue } = pattern(address)
  return (
    <svg
      className="avatar"
      width={size}
      height={size}
      viewBox="0 0 5 5"
      role="img"
      aria-hidden="true"
      shapeRendering="crispEdges"
    >
      <rect width="5" height="5" fill={`hsl(${hue} 45% 88%)`} />
      {cells.flatMap(([row, col]) =>
        (col === 2 ? [col] : [col, 4 - col]).map((x) => (
          <rect key={`${row}-${x}`} x={x} y={row} width="1" height="1" fill={`hsl(${hue} 55% 42%)`} />
        )),
      )}
    </svg>
  )
}
