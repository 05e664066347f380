/** Error body of the wallet-alerts service: `{ code, message }`. */
export interface AlertsErrorBody {
  code: string;
  message: string;
}

export function alertsError(code: string, message: string): AlertsErrorBody {
  return { code, message };
}
