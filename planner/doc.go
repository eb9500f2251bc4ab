// Package planner is capplan's domain: the test contract and its objective,
// the measured rows of a load test, their verdicts, the operating envelope,
// the admission limit, costs, demand scenarios, the crossover and the
// recommendation.
//
// It is pure Go: no HTTP, no SQL, no file formats. Importers turn result
// files into Rows; the web layer stores inputs and renders Result. Every
// number a user sees is computed here, once, by Compute.
//
// Units are fixed at the boundary: times in seconds, rates per second,
// fractions (0..1) for success rates and headroom, money as exact decimals.
package planner
