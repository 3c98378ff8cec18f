/** A fraction as a percentage, with two decimals below 1 % and one above. */
export const percent = (fraction: number) =>
  `${(fraction * 100).toLocaleString('en-US', { maximumFractionDigits: fraction < 0.01 ? 2 : 1 })} %`
