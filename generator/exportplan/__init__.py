"""Exports beyond paper, planned as data: Tabletop Simulator deck sheets and saved objects, print-on-demand
card images. Composed print-shop pages go in, plans come out; the render room turns plans into pixels."""
